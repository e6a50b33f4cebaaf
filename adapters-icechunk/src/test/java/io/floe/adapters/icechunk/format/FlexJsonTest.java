package io.floe.adapters.icechunk.format;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.math.BigInteger;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * FlexBuffers kinds that Python's Icechunk never writes but the format has (indirect scalars,
 * blobs, key vectors, wide typed vectors), built byte by byte from the format description; the
 * writer's round trip; and damaged input.
 */
class FlexJsonTest {

  private static Object decode(String hex) {
    return FlexJson.decode("test", HexFormat.of().parseHex(hex));
  }

  @Test
  void indirectScalarsReadTheirOwnWidth() {
    assertThat(decode("fb011801")).isEqualTo(-5L);
    assertThat(decode("000000000000f83f082301")).isEqualTo(1.5);
    assertThat(decode("ffffffffffffffff081f01"))
        .isEqualTo(new BigInteger("18446744073709551615"));
  }

  @Test
  void blobsReadAsTheirUnsignedBytes() {
    assertThat(decode("0361628003640" + "1")).isEqualTo(List.of(97L, 98L, 128L));
  }

  @Test
  void typedVectorsOfKeysWideIntsFixedFloatsAndBools() {
    assertThat(decode("61006200020504023801")).isEqualTo(List.of("a", "b"));
    assertThat(decode("02000001ffff042d01")).isEqualTo(List.of(256L, -1L));
    assertThat(decode("0000c03f00002040000080bf0c5601")).isEqualTo(List.of(1.5, 2.5, -1.0));
    assertThat(decode("03010001039001")).isEqualTo(List.of(true, false, true));
  }

  @Test
  void whatPythonIcechunkWritesForShortListsReads() {
    // Bytes of icechunk 2.3's commit metadata values [1, 2], [1.5, 2.5], [1, 2, 3] and
    // [1, 18446744073709551615]: fixed typed vectors, the kinds older Floe refused.
    assertThat(decode("0102024401")).isEqualTo(List.of(1L, 2L));
    assertThat(decode("0000c03f00002040084a01")).isEqualTo(List.of(1.5, 2.5));
    assertThat(decode("010203035001")).isEqualTo(List.of(1L, 2L, 3L));
    assertThat(decode("0100000000000000ffffffffffffffff104701"))
        .isEqualTo(List.of(1L, new BigInteger("18446744073709551615")));
  }

  @Test
  void writerRoundTripsEveryWidth() {
    List<Object> values = new ArrayList<>(Arrays.asList(null, true, false, 0L, 127L, 128L, 255L,
        256L, 65535L, 65536L, 4294967295L, 4294967296L, Long.MAX_VALUE, -1L, -128L, -129L,
        -32769L, Long.MIN_VALUE, new BigInteger("18446744073709551615"), 0.5, 0.1, -0.0,
        3.5e38, 5e-324, "", "é日本🧊", "x".repeat(300), "y".repeat(70_000)));
    Map<String, Object> map = new LinkedHashMap<>();
    map.put("z", values);
    map.put("é", Map.of("deep", List.of(List.of(1L, 2L), List.of())));
    map.put("", Arrays.asList(1L, "a", null, 2.5));
    map.put("B", new BigInteger("18446744073709551615"));
    List<Object> wide = new ArrayList<>();
    for (int i = 0; i < 5000; i++) {
      wide.add("s" + i);
    }
    map.put("wide", wide);
    Object back = FlexJson.decode("test", FlexJson.encode(map));
    assertThat(back).isEqualTo(map);
    assertThat(new ArrayList<Object>(((Map<?, ?>) back).keySet())).containsExactly("", "B", "wide", "z", "é");
    assertThat(FlexJson.decode("test", FlexJson.encode(new byte[] {1, (byte) 200})))
        .isEqualTo(List.of(1L, 200L));
    assertThat(FlexJson.decode("test", FlexJson.encode(new BigInteger("1" + "0".repeat(30)))))
        .isEqualTo(1e30);
    assertThat(FlexJson.decode("test", FlexJson.encode(Double.NaN))).isNull();
  }

  @Test
  void damagedBytesOnlyEverRaiseFormatExceptionsNamingTheObject() {
    List<byte[]> samples = List.of(HexFormat.of().parseHex("0102024401"),
        HexFormat.of().parseHex("61006200020504023801"),
        FlexJson.encode(Map.of("a", List.of(1L, "two", 3.5, Map.of("b", true)), "c", "text")));
    Random random = new Random(42);
    for (byte[] sample : samples) {
      for (int n = 0; n < sample.length; n++) {
        tryDecode(Arrays.copyOf(sample, n));
      }
      for (int i = 0; i < 3000; i++) {
        byte[] damaged = sample.clone();
        damaged[random.nextInt(damaged.length)] = (byte) random.nextInt(256);
        if (random.nextBoolean()) {
          damaged[random.nextInt(damaged.length)] = (byte) random.nextInt(256);
        }
        tryDecode(damaged);
      }
    }
    assertThatThrownBy(() -> FlexJson.decode("snapshot X, metadata 'k'", new byte[] {0, 0x7c, 1}))
        .isInstanceOf(IcechunkFormatException.class).hasMessageStartingWith("snapshot X, metadata 'k'");
  }

  private static void tryDecode(byte[] bytes) {
    try {
      FlexJson.decode("damaged", bytes);
    } catch (IcechunkFormatException e) {
      assertThat(e.getMessage()).startsWith("damaged: ");
    }
  }

  @Test
  void nestingIsBoundedSoOffsetCyclesEnd() {
    // A vector whose only element points at the vector itself.
    assertThatThrownBy(() -> decode("0100280228" + "01"))
        .isInstanceOf(IcechunkFormatException.class);
  }
}
