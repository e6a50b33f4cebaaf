package io.floe.adapters.storage;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
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
    byte[] bytes = ((Inet6Address) address).getAddress();
    if ((bytes[0] & 0xfe) == 0xfc) {
      return true; // fc00::/7, unique local
    }
    return embeddedIpv4(bytes).map(InetStorageNetwork::isInternalV4).orElse(false);
  }

  /**
   * The IPv4 address an IPv6 one carries to reach it: IPv4-compatible ({@code ::a.b.c.d}), NAT64
   * ({@code 64:ff9b::/96}), 6to4 ({@code 2002::/16}) and Teredo ({@code 2001::/32}, whose client
   * address is stored inverted). IPv4-mapped addresses the JDK already turns into IPv4 ones.
   */
  private static Optional<byte[]> embeddedIpv4(byte[] v6) {
    if (zeros(v6, 0, 12) || isNat64(v6)) {
      return Optional.of(new byte[] {v6[12], v6[13], v6[14], v6[15]});
    }
    if (v6[0] == 0x20 && v6[1] == 0x02) {
      return Optional.of(new byte[] {v6[2], v6[3], v6[4], v6[5]});
    }
    if (v6[0] == 0x20 && v6[1] == 0x01 && v6[2] == 0 && v6[3] == 0) {
      return Optional.of(new byte[] {(byte) ~v6[12], (byte) ~v6[13], (byte) ~v6[14],
          (byte) ~v6[15]});
    }
    return Optional.empty();
  }

  private static boolean zeros(byte[] bytes, int from, int to) {
    for (int i = from; i < to; i++) {
      if (bytes[i] != 0) {
        return false;
      }
    }
    return true;
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
    return bytes[0] == 0 && bytes[1] == 0x64 && bytes[2] == (byte) 0xff
        && bytes[3] == (byte) 0x9b && zeros(bytes, 4, 12);
  }
}
