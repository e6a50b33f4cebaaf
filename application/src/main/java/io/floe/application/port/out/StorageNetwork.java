package io.floe.application.port.out;

import io.floe.domain.BucketConfig;
import java.net.URI;
import java.util.List;

/** What the network says about the places a bucket configuration makes the server connect to. */
public interface StorageNetwork {
  /** Where a host leads. */
  enum Reach {
    /** Every address the host has is a public one. */
    PUBLIC,
    /**
     * At least one address is the server's own or its network's: loopback, link-local (cloud
     * metadata services), private ranges, unique-local, carrier-grade NAT, unspecified or
     * multicast, also when embedded in an IPv6 address.
     */
    PRIVATE,
    /** The host has no address now. */
    UNRESOLVED
  }

  Reach reach(String host);

  /**
   * Servers the bucket's credentials themselves make the server contact besides the platform's
   * own (a service-account key naming its own token server); empty for most.
   */
  List<URI> credentialServers(BucketConfig bucket);
}
