package io.floe.adapters.icechunk.format;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** The lazy snapshot view finds every node by binary search, as a full decode would. */
class SnapshotFileTest {

  private static final List<String> NAMES = List.of("a", "b", "B", "a b", "a-b", "a.b", "é", "日本",
      "\uD83E\uDDCA", "\uFF21", "z", "zz", "a0", "a/", "_");

  @Test
  void everyNodeIsFoundAndChildrenMatchAScan() {
    List<NodeSnapshot> nodes = new ArrayList<>();
    nodes.add(NodeSnapshot.group(NodeId.random(), "/", "{}".getBytes(StandardCharsets.UTF_8)));
    for (String g : NAMES) {
      if (g.contains("/")) {
        continue;
      }
      nodes.add(NodeSnapshot.group(NodeId.random(), "/" + g, ("{\"g\":\"" + g + "\"}")
          .getBytes(StandardCharsets.UTF_8)));
      for (String a : NAMES) {
        if (!a.contains("/")) {
          nodes.add(NodeSnapshot.group(NodeId.random(), "/" + g + "/" + a, new byte[] {'{', '}'}));
        }
      }
    }
    Snapshot snapshot = new Snapshot(SpecVersion.V2, ObjectId12.random(), null, nodes, 1L, "m",
        List.of(), List.of());
    SnapshotFile file = SnapshotFile.open("snapshots/X", SnapshotCodec.encode(snapshot));

    assertThat(file.nodeCount()).isEqualTo(nodes.size());
    List<String> stored = file.nodes().stream().map(NodeSnapshot::path).toList();
    List<String> byBytes = new ArrayList<>(stored);
    byBytes.sort((x, y) -> Arrays.compareUnsigned(x.getBytes(StandardCharsets.UTF_8),
        y.getBytes(StandardCharsets.UTF_8)));
    assertThat(stored).isEqualTo(byBytes);
    for (NodeSnapshot n : nodes) {
      assertThat(file.node(n.path())).as(n.path()).hasValueSatisfying(found -> {
        assertThat(found.id()).isEqualTo(n.id());
        assertThat(found.userData()).isEqualTo(n.userData());
      });
      List<String> expected = nodes.stream().map(NodeSnapshot::path)
          .filter(p -> !p.equals(n.path()) && parent(p).equals(n.path())).sorted(
              (x, y) -> Arrays.compareUnsigned(x.getBytes(StandardCharsets.UTF_8),
                  y.getBytes(StandardCharsets.UTF_8))).toList();
      assertThat(file.children(n.path()).stream().map(NodeSnapshot::path).toList())
          .as("children of " + n.path()).isEqualTo(expected);
    }
    assertThat(file.node("/missing")).isEmpty();
    assertThat(file.node("/a/zzz")).isEmpty();
    assertThat(file.node("")).isEmpty();
  }

  @Test
  void pathOrderIsUtf8ByteOrderWithoutEncoding() {
    Random random = new Random(3);
    char[] alphabet = {'a', 'Z', '/', '\u00e9', '\u65e5', '\uFF21', '\uE000', '\uD83E', '\uDDCA',
        '\uD800', '\uDC00', '0'};
    for (int i = 0; i < 20_000; i++) {
      String x = randomString(random, alphabet);
      String y = randomString(random, alphabet);
      int expected = Integer.signum(Arrays.compareUnsigned(x.getBytes(StandardCharsets.UTF_8),
          y.getBytes(StandardCharsets.UTF_8)));
      if (isWellFormed(x) && isWellFormed(y)) {
        assertThat(Integer.signum(FlexJson.compareUtf8(x, y))).as(x + " vs " + y)
            .isEqualTo(expected);
      }
    }
  }

  @Test
  void damageSurfacesOnReadAsAFormatErrorNamingTheFile() {
    Snapshot snapshot = new Snapshot(SpecVersion.V2, ObjectId12.random(), null,
        List.of(NodeSnapshot.group(NodeId.random(), "/", new byte[] {'{', '}'})), 1L, "m",
        List.of(), List.of());
    byte[] payload = SnapshotCodec.encodePayload(snapshot);
    Arrays.fill(payload, 4, payload.length, (byte) 0xff);
    assertThatThrownBy(() -> SnapshotFile.fromPayload("repo/snapshots/X", SpecVersion.V2, payload)
        .node("/")).isInstanceOf(IcechunkFormatException.class)
        .hasMessageStartingWith("repo/snapshots/X");
  }

  private static String randomString(Random random, char[] alphabet) {
    char[] out = new char[random.nextInt(5)];
    for (int i = 0; i < out.length; i++) {
      out[i] = alphabet[random.nextInt(alphabet.length)];
    }
    return new String(out);
  }

  private static boolean isWellFormed(String s) {
    return s.codePoints().noneMatch(cp -> cp >= 0xD800 && cp <= 0xDFFF);
  }

  private static String parent(String path) {
    int i = path.lastIndexOf('/');
    return i <= 0 ? "/" : path.substring(0, i);
  }
}
