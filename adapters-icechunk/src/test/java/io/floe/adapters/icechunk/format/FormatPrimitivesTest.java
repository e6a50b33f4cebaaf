package io.floe.adapters.icechunk.format;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Arrays;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class FormatPrimitivesTest {

  @Test
  void crockfordEncodesTheSpecExampleId() {
    byte[] bytes = HexFormat.of().parseHex("0b1cc8d6787580f0e33a6534");
    assertThat(Crockford.encode(bytes)).isEqualTo("1CECHNKREP0F1RSTCMT0");
    assertThat(ObjectId12.INITIAL_SNAPSHOT.toString()).isEqualTo("1CECHNKREP0F1RSTCMT0");
    assertThat(Crockford.decode("1CECHNKREP0F1RSTCMT0", 12)).isEqualTo(bytes);
  }

  @Test
  void idsRoundTripThroughTheirNames() {
    for (int i = 0; i < 50; i++) {
      ObjectId12 id = ObjectId12.random();
      assertThat(id.toString()).hasSize(20);
      assertThat(ObjectId12.parse(id.toString())).isEqualTo(id);
      NodeId node = NodeId.random();
      assertThat(node.toString()).hasSize(13);
      assertThat(NodeId.parse(node.toString())).isEqualTo(node);
    }
    assertThatThrownBy(() -> ObjectId12.parse("TOO-SHORT")).isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void flexBuffersRoundTripJsonLikeValues() {
    Map<String, Object> nested = new LinkedHashMap<>();
    nested.put("z", List.of(1L, -2L, 2.5, true, "s"));
    nested.put("a", Map.of("deep", Map.of("deeper", "yes")));
    nested.put("nothing", null);
    nested.put("big", Long.MAX_VALUE);
    Object back = FlexJson.decode(FlexJson.encode(nested));
    assertThat(back).isEqualTo(new java.util.TreeMap<>(nested));
    assertThat(FlexJson.decode(FlexJson.encode("plain"))).isEqualTo("plain");
    assertThat(FlexJson.decode(FlexJson.encode(7))).isEqualTo(7L);
    assertThat(FlexJson.decode(FlexJson.encode(Arrays.asList(1, null)))).isEqualTo(Arrays.asList(1L, null));
  }

  @Test
  void envelopeRefusesFramesCutShortOrLyingAboutTheirSize() {
    byte[] sealed = Envelope.seal(SpecVersion.V2, FileType.SNAPSHOT, new byte[1000]);
    for (int n = Envelope.HEADER_LENGTH; n < sealed.length; n++) {
      byte[] cut = Arrays.copyOf(sealed, n);
      assertThatThrownBy(() -> Envelope.open("snapshots/X", cut, FileType.SNAPSHOT))
          .isInstanceOf(IcechunkFormatException.class).hasMessageStartingWith("snapshots/X");
    }
  }

  @Test
  void envelopeRoundTripsAndRecordsHeader() {
    byte[] sealed = Envelope.seal(SpecVersion.V2, FileType.MANIFEST, new byte[] {1, 2, 3});
    assertThat(Arrays.copyOf(sealed, 12)).isEqualTo(Envelope.MAGIC);
    assertThat(sealed[36]).isEqualTo((byte) 2);
    assertThat(sealed[37]).isEqualTo((byte) 2);
    assertThat(sealed[38]).isEqualTo((byte) 1);
    Envelope.Opened opened = Envelope.open("x", sealed, FileType.MANIFEST);
    assertThat(opened.payload()).containsExactly(1, 2, 3);
    assertThat(opened.implementation()).isEqualTo(Envelope.FLOE_IMPLEMENTATION);
  }

  @Test
  void badFilesAreRejectedWithTheObjectNamedAndTheReason() {
    byte[] good = Envelope.seal(SpecVersion.V2, FileType.SNAPSHOT, new byte[64]);

    byte[] badMagic = good.clone();
    badMagic[0] = 'X';
    assertThatThrownBy(() -> Envelope.open("repo/snapshots/A", badMagic, FileType.SNAPSHOT))
        .isInstanceOf(IcechunkFormatException.class)
        .hasMessageContaining("repo/snapshots/A").hasMessageContaining("magic");

    byte[] badType = good.clone();
    badType[37] = 9;
    assertThatThrownBy(() -> Envelope.open("repo/snapshots/B", badType, null))
        .hasMessageContaining("repo/snapshots/B").hasMessageContaining("unknown Icechunk file type 9");

    byte[] wrongType = good.clone();
    wrongType[37] = 2;
    assertThatThrownBy(() -> Envelope.open("repo/snapshots/B2", wrongType, FileType.SNAPSHOT))
        .hasMessageContaining("expected a SNAPSHOT file").hasMessageContaining("MANIFEST");

    byte[] badVersion = good.clone();
    badVersion[36] = 3;
    assertThatThrownBy(() -> Envelope.open("repo/snapshots/C", badVersion, FileType.SNAPSHOT))
        .hasMessageContaining("repo/snapshots/C").hasMessageContaining("unsupported Icechunk spec version 3");

    byte[] truncated = Arrays.copyOf(good, good.length - 5);
    assertThatThrownBy(() -> Envelope.open("repo/snapshots/D", truncated, FileType.SNAPSHOT))
        .hasMessageContaining("repo/snapshots/D").hasMessageContaining("zstd");

    byte[] corrupt = good.clone();
    for (int i = Envelope.HEADER_LENGTH + 4; i < corrupt.length; i++) {
      corrupt[i] = (byte) 0xAB;
    }
    assertThatThrownBy(() -> Envelope.open("repo/snapshots/E", corrupt, FileType.SNAPSHOT))
        .hasMessageContaining("repo/snapshots/E").hasMessageContaining("zstd");

    assertThatThrownBy(() -> Envelope.open("repo/snapshots/F", new byte[10], FileType.SNAPSHOT))
        .hasMessageContaining("repo/snapshots/F").hasMessageContaining("truncated");
  }

  @Test
  void corruptFlatbufferInsideAValidFrameNamesTheObject() {
    byte[] garbage = Envelope.seal(SpecVersion.V2, FileType.SNAPSHOT,
        new byte[] {(byte) 0xff, (byte) 0xff, 0x7f, 0x7f, 1, 2});
    assertThatThrownBy(() -> SnapshotCodec.decode("repo/snapshots/G", garbage))
        .isInstanceOf(IcechunkFormatException.class)
        .hasMessageContaining("repo/snapshots/G").hasMessageContaining("corrupt snapshot");
  }
}
