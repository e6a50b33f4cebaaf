package io.floe.adapters.storage;

import static org.assertj.core.api.Assertions.assertThat;

import io.floe.application.port.out.StorageNetwork.Reach;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import org.junit.jupiter.api.Test;

/**
 * An IPv6 address that carries an IPv4 one is judged by that IPv4 address, in every spelling of
 * every form that embeds one, through the same classification bucket endpoints and webhook
 * targets are checked with ({@link InetStorageNetwork#reach}).
 */
class InternalAddressesTest {
  private final InetStorageNetwork network = new InetStorageNetwork();

  @Test
  void theFormsOnceLetThroughLeadToLoopback() {
    for (String host : List.of("::ffff:0:7f00:1", "[::ffff:0:7f00:1]", "64:ff9b:1::7f00:1",
        "[64:ff9b:1::7f00:1]", "::ffff:0:127.0.0.1", "64:ff9b:1::127.0.0.1",
        "64:ff9b:1:7f00:0:100::", "64:ff9b:1:a9:fe:a9fe::", "::ffff:0:a9fe:a9fe")) {
      assertThat(network.reach(host)).as(host).isEqualTo(Reach.PRIVATE);
    }
  }

  @Test
  void everyFormOfAnInternalAddressIsInternal() throws UnknownHostException {
    for (String v4 : List.of("127.0.0.1", "169.254.169.254", "10.1.2.3", "172.16.0.1",
        "192.168.1.1", "100.64.0.1", "0.0.0.0", "198.18.0.1", "224.0.0.1", "255.255.255.255")) {
      byte[] a = InetAddress.getByName(v4).getAddress();
      for (String spelling : spellings(a)) {
        assertThat(InternalAddresses.isInternal(InetAddress.getByName(spelling)))
            .as("%s as %s", v4, spelling).isTrue();
      }
    }
  }

  @Test
  void publicAddressesInTheSameFormsStayPublic() {
    for (String host : List.of("8.8.8.8", "::ffff:8.8.8.8", "::ffff:0:808:808",
        "64:ff9b::8.8.8.8", "64:ff9b:1::808:808", "2002:808:808::1",
        "2001:0:4136:e378:8000:63bf:f7f7:f7f7", "2001:4860:4860::8888")) {
      assertThat(network.reach(host)).as(host).isEqualTo(Reach.PUBLIC);
    }
  }

  @Property(tries = 2000)
  void anEmbeddedIpv4AddressIsJudgedAsItself(@ForAll("ipv4") byte[] a)
      throws UnknownHostException {
    boolean expected = InternalAddresses.isInternal(InetAddress.getByAddress(a));
    for (String spelling : spellings(a)) {
      assertThat(InternalAddresses.isInternal(InetAddress.getByName(spelling)))
          .as("%s as %s", InetAddress.getByAddress(a).getHostAddress(), spelling)
          .isEqualTo(expected);
    }
  }

  /** Any address, half of them drawn from the ranges the rule refuses. */
  @Provide
  Arbitrary<byte[]> ipv4() {
    Arbitrary<Integer> octet = Arbitraries.integers().between(0, 255);
    Arbitrary<Integer> first = Arbitraries.frequencyOf(
        net.jqwik.api.Tuple.of(1, octet),
        net.jqwik.api.Tuple.of(1, Arbitraries.of(0, 10, 100, 127, 169, 172, 192, 198, 224, 255)));
    return Combinators.combine(first, octet, octet, octet)
        .as((w, x, y, z) -> new byte[] {(byte) (int) w, (byte) (int) x, (byte) (int) y,
            (byte) (int) z});
  }

  /** Each IPv6 spelling that carries {@code a}. */
  private static List<String> spellings(byte[] a) {
    int w = a[0] & 0xff;
    int x = a[1] & 0xff;
    int y = a[2] & 0xff;
    int z = a[3] & 0xff;
    String dotted = w + "." + x + "." + y + "." + z;
    String hi = Integer.toHexString(w << 8 | x);
    String lo = Integer.toHexString(y << 8 | z);
    List<String> out = new ArrayList<>(List.of(
        "::ffff:" + dotted, "::ffff:" + hi + ":" + lo, "0:0:0:0:0:ffff:" + hi + ":" + lo,
        ("::ffff:" + hi + ":" + lo).toUpperCase(Locale.ROOT),
        String.format("0000:0000:0000:0000:0000:FFFF:%04x:%04x", w << 8 | x, y << 8 | z),
        "0:0:0:0:0:ffff:" + dotted, "::" + dotted, "::ffff:0:" + dotted,
        "::ffff:0:" + hi + ":" + lo, "0:0:0:0:ffff:0:" + hi + ":" + lo,
        "64:ff9b::" + dotted, "64:ff9b::" + hi + ":" + lo, "64:FF9B:0:0:0:0:" + hi + ":" + lo,
        "64:ff9b:1::" + dotted, "64:ff9b:1::" + hi + ":" + lo,
        "2002:" + hi + ":" + lo + "::", "2002:" + hi + ":" + lo + ":1:2:3:4:5",
        "2001:0:4136:e378:8000:63bf:" + Integer.toHexString(~(w << 8 | x) & 0xffff) + ":"
            + Integer.toHexString(~(y << 8 | z) & 0xffff)));
    return out;
  }
}
