package io.floe.adapters.storage;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.google.common.net.InetAddresses;
import io.floe.application.port.out.StorageNetwork;
import io.floe.domain.BucketConfig;
import io.floe.domain.BucketCredentials;
import io.floe.domain.StoragePlatform;
import java.io.IOException;
import java.net.Inet4Address;
import java.net.Inet6Address;
import java.net.InetAddress;
import java.net.URI;
import java.net.UnknownHostException;
import java.util.List;
import java.util.Optional;

/**
 * Where hosts lead, by the addresses the JVM resolves them to (the same resolver the storage
 * clients use), and the token server a Google service-account key names.
 */
public final class InetStorageNetwork implements StorageNetwork {
  /** Where Google's client library exchanges a service-account key for tokens by default. */
  static final URI GOOGLE_TOKEN_SERVER = URI.create("https://oauth2.googleapis.com/token");
  private static final ObjectMapper JSON = new ObjectMapper();

  @Override
  public Reach reach(String host) {
    InetAddress[] addresses;
    try {
      addresses = InetAddress.getAllByName(host);
    } catch (UnknownHostException | SecurityException e) {
      return Reach.UNRESOLVED;
    }
    for (InetAddress address : addresses) {
      if (isInternal(address)) {
        return Reach.PRIVATE;
      }
    }
    return addresses.length == 0 ? Reach.UNRESOLVED : Reach.PUBLIC;
  }

  @Override
  public List<URI> credentialServers(BucketConfig bucket) {
    BucketCredentials credentials = bucket.credentials();
    if (bucket.platform() != StoragePlatform.GCS
        || credentials.kind() != BucketCredentials.Kind.STATIC) {
      return List.of();
    }
    return credentials.secretAccessKey().flatMap(InetStorageNetwork::tokenServer)
        .filter(uri -> !uri.equals(GOOGLE_TOKEN_SERVER)).map(List::of).orElse(List.of());
  }

  /** The {@code token_uri} of a service-account key (JSON), when it names one. */
  private static Optional<URI> tokenServer(String key) {
    try {
      JsonNode uri = JSON.readTree(key).path("token_uri");
      if (!uri.isTextual()) {
        return Optional.empty();
      }
      URI parsed = URI.create(uri.asText());
      // A token server without a host is one the client library cannot reach either.
      return parsed.getHost() == null ? Optional.empty() : Optional.of(parsed);
    } catch (IOException | IllegalArgumentException e) {
      return Optional.empty(); // not a key the client library could read: it fails on use
    }
  }

  /**
   * The server's own machine or network: loopback, unspecified, link-local (where cloud metadata
   * services answer), private, unique-local, carrier-grade NAT, benchmarking, reserved and
   * multicast ranges, and IPv4 addresses embedded in IPv6 ones (mapped, compatible, 6to4,
   * Teredo, NAT64).
   */
  static boolean isInternal(InetAddress address) {
    if (address.isAnyLocalAddress() || address.isLoopbackAddress()
        || address.isLinkLocalAddress() || address.isSiteLocalAddress()
        || address.isMulticastAddress()) {
      return true;
    }
    if (address instanceof Inet4Address v4) {
      return isInternalV4(v4.getAddress());
    }
    Inet6Address v6 = (Inet6Address) address;
    byte[] bytes = v6.getAddress();
    if ((bytes[0] & 0xfe) == 0xfc) {
      return true; // fc00::/7, unique local
    }
    if (InetAddresses.hasEmbeddedIPv4ClientAddress(v6)) {
      return isInternal(InetAddresses.getEmbeddedIPv4ClientAddress(v6));
    }
    if (isNat64(bytes)) {
      return isInternalV4(new byte[] {bytes[12], bytes[13], bytes[14], bytes[15]});
    }
    return false;
  }

  private static boolean isInternalV4(byte[] a) {
    int first = a[0] & 0xff;
    int second = a[1] & 0xff;
    return first == 0 // this network
        || first == 10 || first == 127
        || (first == 100 && second >= 64 && second <= 127) // carrier-grade NAT
        || (first == 169 && second == 254)
        || (first == 172 && second >= 16 && second <= 31)
        || (first == 192 && second == 168)
        || (first == 192 && second == 0 && (a[2] & 0xff) == 0) // protocol assignments
        || (first == 198 && (second == 18 || second == 19)) // benchmarking
        || first >= 224; // multicast, reserved, broadcast
  }

  /** 64:ff9b::/96, the well-known NAT64 prefix, which carries an IPv4 address at its end. */
  private static boolean isNat64(byte[] bytes) {
    if (bytes[0] != 0 || bytes[1] != 0x64 || bytes[2] != (byte) 0xff || bytes[3] != (byte) 0x9b) {
      return false;
    }
    for (int i = 4; i < 12; i++) {
      if (bytes[i] != 0) {
        return false;
      }
    }
    return true;
  }
}
