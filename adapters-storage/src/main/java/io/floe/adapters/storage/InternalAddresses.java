package io.floe.adapters.storage;

import java.net.Inet4Address;
import java.net.Inet6Address;
import java.net.InetAddress;
import java.util.ArrayList;
import java.util.List;

/**
 * The one classification of an address as the server's own machine or network, for every
 * outbound target Floe is asked to reach (bucket endpoints, token servers, webhook and Kafka
 * targets all go through {@link InetStorageNetwork}).
 *
 * <p>An IPv6 address that carries an IPv4 one is judged by that IPv4 address, whatever its
 * spelling: IPv4-mapped ({@code ::ffff:0:0/96}), IPv4-compatible ({@code ::/96}, deprecated),
 * SIIT ({@code ::ffff:0:0:0/96}), NAT64 ({@code 64:ff9b::/96}, and the local-use
 * {@code 64:ff9b:1::/48} at each prefix length RFC 6052 allows), 6to4 ({@code 2002::/16}) and
 * Teredo ({@code 2001::/32}, whose client address is stored inverted). A translator or tunnel
 * forwards such an address to the IPv4 one, so the rule must see the IPv4 one.
 */
public final class InternalAddresses {
  private InternalAddresses() {}

  /**
   * Loopback, unspecified, link-local (where cloud metadata services answer), private,
   * unique-local, carrier-grade NAT, protocol assignments, benchmarking, reserved, broadcast and
   * multicast addresses, or an IPv6 address embedding one of them.
   */
  public static boolean isInternal(InetAddress address) {
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
    return embeddedIpv4(bytes).stream().anyMatch(InternalAddresses::isInternalV4);
  }

  /**
   * The IPv4 addresses an IPv6 one may lead to; several only for the local-use NAT64 prefix,
   * whose length the translator's operator chose. Empty for an address that embeds none.
   */
  static List<byte[]> embeddedIpv4(byte[] v6) {
    List<byte[]> found = new ArrayList<>();
    boolean mappedOrCompatible = zeros(v6, 0, 10)
        && (zeros(v6, 10, 12) || (v6[10] == (byte) 0xff && v6[11] == (byte) 0xff));
    boolean siit = zeros(v6, 0, 8) && v6[8] == (byte) 0xff && v6[9] == (byte) 0xff
        && zeros(v6, 10, 12);
    boolean nat64 = isPrefix(v6, 0x00, 0x64, 0xff, 0x9b) && zeros(v6, 4, 12);
    boolean localNat64 = isPrefix(v6, 0x00, 0x64, 0xff, 0x9b, 0x00, 0x01);
    if (mappedOrCompatible || siit || nat64 || localNat64 && zeros(v6, 6, 12)) {
      found.add(slice(v6, 12, 13, 14, 15));
    } else if (localNat64) {
      // 64:ff9b:1::/48 (RFC 8215) with more than the /96 form's zeros: the IPv4 address sits
      // where the operator's prefix length (/48, /56, /64 or /96, RFC 6052 section 2.2) puts it,
      // which only the translator knows, so each place counts.
      found.add(slice(v6, 12, 13, 14, 15));
      found.add(slice(v6, 6, 7, 9, 10));
      found.add(slice(v6, 7, 9, 10, 11));
      found.add(slice(v6, 9, 10, 11, 12));
    } else if (v6[0] == 0x20 && v6[1] == 0x02) {
      found.add(slice(v6, 2, 3, 4, 5));
    } else if (isPrefix(v6, 0x20, 0x01, 0x00, 0x00)) {
      byte[] client = slice(v6, 12, 13, 14, 15);
      for (int i = 0; i < 4; i++) {
        client[i] = (byte) ~client[i];
      }
      found.add(client);
    }
    return found;
  }

  /** The IPv4 rule, on an address's four bytes. */
  static boolean isInternalV4(byte[] a) {
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

  private static boolean isPrefix(byte[] v6, int... prefix) {
    for (int i = 0; i < prefix.length; i++) {
      if ((v6[i] & 0xff) != prefix[i]) {
        return false;
      }
    }
    return true;
  }

  private static byte[] slice(byte[] v6, int... at) {
    byte[] v4 = new byte[at.length];
    for (int i = 0; i < at.length; i++) {
      v4[i] = v6[at[i]];
    }
    return v4;
  }

  private static boolean zeros(byte[] bytes, int from, int to) {
    for (int i = from; i < to; i++) {
      if (bytes[i] != 0) {
        return false;
      }
    }
    return true;
  }
}
