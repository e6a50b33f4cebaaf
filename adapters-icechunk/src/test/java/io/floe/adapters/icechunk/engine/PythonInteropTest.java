package io.floe.adapters.icechunk.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeFalse;

import com.fasterxml.jackson.databind.JsonNode;
import com.github.luben.zstd.Zstd;
import io.floe.adapters.icechunk.format.ChunkIndex;
import io.floe.adapters.icechunk.format.ChunkPayload;
import io.floe.adapters.icechunk.format.NodeSnapshot;
import io.floe.adapters.icechunk.format.ObjectId12;
import io.floe.adapters.icechunk.port.BucketObjectStore;
import io.floe.adapters.storage.local.LocalBucketStorage;
import io.floe.application.port.out.BucketStorage;
import io.floe.domain.StoragePath;
import java.nio.file.Path;
import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.Base64;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Floe and Python Icechunk 2.3 read each other's repositories and commit on top of each other. */
class PythonInteropTest {
  private static final StoragePath PREFIX = new StoragePath("repos/interop");

  @TempDir
  Path dir;
  BucketStorage storage;
  Path repoDir;

  @BeforeAll
  static void requirePython() {
    assumeFalse(PythonIcechunk.skipRequested(), "floe.skipPythonInterop=true");
    PythonIcechunk.requireAvailable();
  }

  @BeforeEach
  void setUp() {
    storage = new LocalBucketStorage(dir);
    repoDir = dir.resolve(PREFIX.value());
  }

  // ------------------------------------------------------------ Python writes, Floe reads

  @Test
  void repositoryBuiltByPythonReadsIdenticallyInFloe() {
    JsonNode expected = PythonIcechunk.run("build", repoDir.toString());
    IcechunkRepository repo = IcechunkRepository.open(BucketObjectStore.of(storage), PREFIX);

    assertThat(toJson(repo.branches())).isEqualTo(textMap(expected.get("branches")));
    assertThat(toJson(repo.tags())).isEqualTo(textMap(expected.get("tags")));
    for (Iterator<String> it = expected.get("log").fieldNames(); it.hasNext(); ) {
      String branch = it.next();
      assertLogMatches(repo.log(Ref.branch(branch)), expected.get("log").get(branch));
    }
    for (Iterator<String> it = expected.get("refs").fieldNames(); it.hasNext(); ) {
      String ref = it.next();
      Ref r = ref.startsWith("branch:") ? Ref.branch(ref.substring(7)) : Ref.tag(ref.substring(4));
      assertSessionMatches(repo.readonlySession(r), expected.get("refs").get(ref), ref);
    }
    // The Python repo has both kinds of chunk refs.
    ReadSession main = repo.readonlySession(Ref.branch("main"));
    assertThat(main.chunkRefs("/big").values()).allMatch(p -> p instanceof ChunkPayload.Native);
    assertThat(main.chunkRefs("/weather/temp").values()).allMatch(p -> p instanceof ChunkPayload.Inline);
    assertThat(main.node("/weather/stations/grid").orElseThrow().dimensionNames())
        .containsExactly("y", "x");
  }

  @Test
  void floeCommitsOnTopOfAPythonBuiltRepositoryAndPythonReadsIt() {
    PythonIcechunk.run("build", repoDir.toString());
    IcechunkRepository repo = IcechunkRepository.open(BucketObjectStore.of(storage), PREFIX);
    WritableSession s = repo.writableSession("main");
    s.setAttributes("/weather/temp", Map.of("units", "C"));
    s.setChunk("/big", ChunkIndex.of(2), TestArrays.float64s(new double[100]));
    ObjectId12 id = s.commit("floe on python", Map.of("from", "floe"));
    JsonNode py = PythonIcechunk.run("describe", repoDir.toString());
    JsonNode main = py.get("refs").get("branch:main");
    assertThat(py.get("branches").get("main").asText()).isEqualTo(id.toString());
    assertThat(main.get("nodes").get("/weather/temp").get("attributes").get("units").asText()).isEqualTo("C");
    double[] big = doubles(main.get("values").get("/big"));
    assertThat(big[199]).isEqualTo(42.0);
    assertThat(java.util.Arrays.copyOfRange(big, 200, 300)).containsOnly(0.0);
    assertThat(py.get("tags").get("v1")).isNotNull();
    assertLogMatches(repo.log(Ref.branch("main")), py.get("log").get("main"));
  }

  @Test
  void arraysWrittenByZarrJavaThroughFloeReadInPython() throws Exception {
    IcechunkRepository repo = IcechunkRepository.create(BucketObjectStore.of(storage), PREFIX);
    ObjectId12 id = io.floe.adapters.icechunk.zarr.IcechunkZarrStoreTest.writeWithZarrJava(repo);
    JsonNode py = PythonIcechunk.run("describe", repoDir.toString());
    assertThat(py.get("branches").get("main").asText()).isEqualTo(id.toString());
    JsonNode main = py.get("refs").get("branch:main");
    assertThat(doubles(main.get("values").get("/inner/temps"))).containsExactly(1.5, 2.5, 3.5, 4.5, 5.5, 6.5);
    assertThat(main.get("nodes").get("/").get("attributes").get("title").asText()).isEqualTo("zarr-java");
    assertThat(py.get("log").get("main").get(0).get("metadata").get("tool").asText()).isEqualTo("zarr-java");
  }

  @Test
  void virtualRefsAndRepoConfigFromPythonSurviveAFloeCommit() throws Exception {
    Path data = java.nio.file.Files.createDirectories(dir.resolve("virtual-data"));
    PythonIcechunk.run("build-virtual", repoDir.toString(), data.toString());
    IcechunkRepository repo = IcechunkRepository.open(BucketObjectStore.of(storage), PREFIX);
    ReadSession r = repo.readonlySession(Ref.branch("main"));
    ChunkPayload.Virtual v = (ChunkPayload.Virtual) r.chunkRefs("/v").get(ChunkIndex.of(1));
    assertThat(v.location()).isEqualTo("file://" + data + "/raw.bin");
    assertThat(v.offset()).isEqualTo(16);
    assertThat(v.length()).isEqualTo(16);
    assertThatThrownBy(() -> r.chunk("/v", ChunkIndex.of(0))).hasMessageContaining("virtual");

    WritableSession s = repo.writableSession("main");
    s.setAttributes("/", Map.of("floe", true));
    s.setMetadata("/small", TestArrays.arrayJson("int32", new long[] {20}, new long[] {20}, 0, false, null, null));
    s.setChunk("/small", ChunkIndex.of(0), TestArrays.int32s(new int[20]));
    s.commit("floe keeps the config", Map.of());
    // The repo config says inline_chunk_threshold_bytes = 64, so 80 bytes go to a chunk object.
    assertThat(repo.readonlySession(Ref.branch("main")).chunkRefs("/small").get(ChunkIndex.of(0)))
        .isInstanceOf(ChunkPayload.Native.class);

    JsonNode py = PythonIcechunk.run("read-virtual", repoDir.toString(), data.toString());
    assertThat(longs(py.get("values"))).containsExactly(0, 1, 2, 3, 4, 5, 6, 7);
    assertThat(py.get("containers").get(0).asText()).isEqualTo("file://" + data + "/");
    assertThat(py.get("inline_threshold").asInt()).isEqualTo(64);
    assertThat(py.get("attrs").get("floe").asBoolean()).isTrue();
  }

  @Test
  void specVersion1RepositoryIsReadButNeverWritten() {
    JsonNode expected = PythonIcechunk.run("build-v1", repoDir.toString());
    IcechunkRepository repo = IcechunkRepository.open(BucketObjectStore.of(storage), PREFIX);
    assertThat(repo.specVersion()).isEqualTo(io.floe.adapters.icechunk.format.SpecVersion.V1);
    assertThat(toJson(repo.branches())).isEqualTo(textMap(expected.get("branches")));
    assertThat(toJson(repo.tags())).isEqualTo(textMap(expected.get("tags")));
    assertThat(repo.info().deletedTags()).containsExactly("gone");
    assertLogMatches(repo.log(Ref.branch("main")), expected.get("log").get("main"));
    assertSessionMatches(repo.readonlySession(Ref.tag("t1")), expected.get("refs").get("tag:t1"), "tag:t1");
    java.util.Set<String> before = listAll();
    assertThatThrownBy(() -> repo.writableSession("main"))
        .isInstanceOf(UnsupportedRepositoryException.class).hasMessageContaining("spec version 1");
    assertThatThrownBy(() -> repo.createBranch("x", repo.branches().get("main")))
        .isInstanceOf(UnsupportedRepositoryException.class);
    assertThat(listAll()).isEqualTo(before);
  }

  private java.util.Set<String> listAll() {
    java.util.Set<String> out = new java.util.TreeSet<>();
    storage.list(PREFIX, Integer.MAX_VALUE).forEach(k -> out.add(k.value()));
    return out;
  }

  private void assertLogMatches(List<CommitInfo> log, JsonNode expected) {
    assertThat(log).hasSize(expected.size());
    for (int i = 0; i < log.size(); i++) {
      CommitInfo c = log.get(i);
      JsonNode e = expected.get(i);
      assertThat(c.id().toString()).isEqualTo(e.get("id").asText());
      assertThat(c.parentId() == null ? null : c.parentId().toString())
          .isEqualTo(e.get("parent").isNull() ? null : e.get("parent").asText());
      assertThat(c.message()).isEqualTo(e.get("message").asText());
      assertThat(c.flushedAt()).isEqualTo(OffsetDateTime.parse(e.get("time").asText()).toInstant());
      assertThat(toJson(c.metadata())).isEqualTo(e.get("metadata"));
    }
  }

  private void assertSessionMatches(ReadSession session, JsonNode expected, String ref) {
    Map<String, JsonNode> nodes = new TreeMap<>();
    Map<String, String> chunks = new TreeMap<>();
    for (NodeSnapshot n : session.nodes()) {
      nodes.put(n.path(), parse(n.userData()));
      if (n.isArray()) {
        session.chunkRefs(n.path()).keySet().forEach(index -> chunks.put(chunkKey(n.path(), index),
            Base64.getEncoder().encodeToString(session.chunk(n.path(), index).orElseThrow())));
      }
    }
    Map<String, JsonNode> expectedNodes = new TreeMap<>();
    expected.get("nodes").fields().forEachRemaining(e -> expectedNodes.put(e.getKey(), e.getValue()));
    assertThat(nodes).as("nodes at " + ref).isEqualTo(expectedNodes);
    Map<String, String> expectedChunks = new TreeMap<>();
    expected.get("chunks").fields().forEachRemaining(e -> expectedChunks.put(e.getKey(), e.getValue().asText()));
    assertThat(chunks.keySet()).as("chunk keys at " + ref).isEqualTo(expectedChunks.keySet());
    for (String key : chunks.keySet()) {
      assertThat(chunks.get(key)).as("chunk " + key + " at " + ref).isEqualTo(expectedChunks.get(key));
    }
  }

  // ------------------------------------------------------------ Floe writes, Python reads

  @Test
  void repositoryBuiltByFloeOpensInPythonWithIdenticalValuesAndBothCommitOnTop() {
    IcechunkRepository repo = IcechunkRepository.create(BucketObjectStore.of(storage), PREFIX);
    WritableSession s = repo.writableSession("main");
    s.createGroup("/", Map.of("title", "from floe", "nested", Map.of("list", java.util.Arrays.asList(1, 2.5, null, true, "s"))));
    s.createGroup("/groups/inner", Map.of("depth", 2));
    s.setMetadata("/groups/inner/temps", TestArrays.arrayJson("float64", new long[] {200},
        new long[] {100}, 0.0, false, "{\"units\":\"K\"}", null));
    double[] temps = new double[200];
    for (int i = 0; i < temps.length; i++) {
      temps[i] = 250 + i * 0.5;
    }
    s.setChunk("/groups/inner/temps", ChunkIndex.of(0), TestArrays.float64s(java.util.Arrays.copyOfRange(temps, 0, 100)));
    s.setChunk("/groups/inner/temps", ChunkIndex.of(1), TestArrays.float64s(java.util.Arrays.copyOfRange(temps, 100, 200)));
    s.setMetadata("/ints", TestArrays.arrayJson("int32", new long[] {10}, new long[] {5}, 0, true, null, null));
    s.setChunk("/ints", ChunkIndex.of(0), Zstd.compress(TestArrays.int32s(1, 2, 3, 4, 5), 3));
    s.setChunk("/ints", ChunkIndex.of(1), Zstd.compress(TestArrays.int32s(6, 7, 8, 9, 10), 3));
    s.setMetadata("/grid", TestArrays.arrayJson("int16", new long[] {4, 6}, new long[] {2, 3}, -1,
        false, null, "[\"y\",\"x\"]"));
    s.setChunk("/grid", ChunkIndex.of(1, 0), TestArrays.int16s((short) 1, (short) 2, (short) 3, (short) 4, (short) 5, (short) 6));
    s.setMetadata("/flags", TestArrays.arrayJson("bool", new long[] {4}, new long[] {4}, false, false, null, null));
    s.setChunk("/flags", ChunkIndex.of(0), new byte[] {1, 0, 0, 1});
    Map<String, Object> meta1 = Map.of("author", "floe", "run", Map.of("n", 1, "tags", List.of("a", "b")), "ok", true);
    ObjectId12 first = s.commit("floe first", meta1);
    repo.createTag("v1", first);
    repo.createBranch("dev", first);
    s.setChunk("/ints", ChunkIndex.of(1), Zstd.compress(TestArrays.int32s(60, 70, 80, 90, 100), 3));
    s.setAttributes("/", Map.of("title", "floe second"));
    ObjectId12 second = s.commit("floe second", Map.of("score", 0.25, "neg", -3));

    JsonNode py = PythonIcechunk.run("describe", repoDir.toString());
    assertThat(py.get("branches").get("main").asText()).isEqualTo(second.toString());
    assertThat(py.get("branches").get("dev").asText()).isEqualTo(first.toString());
    assertThat(py.get("tags").get("v1").asText()).isEqualTo(first.toString());
    assertLogMatches(repo.log(Ref.branch("main")), py.get("log").get("main"));
    JsonNode main = py.get("refs").get("branch:main");
    assertThat(main.get("nodes").get("/").get("attributes").get("title").asText()).isEqualTo("floe second");
    assertThat(main.get("nodes").get("/groups/inner").get("attributes").get("depth").asInt()).isEqualTo(2);
    assertThat(doubles(main.get("values").get("/groups/inner/temps"))).containsExactly(temps);
    assertThat(longs(main.get("values").get("/ints"))).containsExactly(1, 2, 3, 4, 5, 60, 70, 80, 90, 100);
    assertThat(main.get("values").get("/grid").toString())
        .isEqualTo("[[-1,-1,-1,-1,-1,-1],[-1,-1,-1,-1,-1,-1],[1,2,3,-1,-1,-1],[4,5,6,-1,-1,-1]]");
    assertThat(main.get("values").get("/flags").toString()).isEqualTo("[true,false,false,true]");
    JsonNode tagged = py.get("refs").get("tag:v1");
    assertThat(longs(tagged.get("values").get("/ints"))).containsExactly(1, 2, 3, 4, 5, 6, 7, 8, 9, 10);
    assertThat(tagged.get("nodes").get("/").get("attributes").get("nested").toString())
        .isEqualTo("{\"list\":[1,2.5,null,true,\"s\"]}");

    // Python commits on top of Floe's commit ...
    String pyCommit = PythonIcechunk.run("commit-on-top", repoDir.toString(), "main").get("id").asText();
    IcechunkRepository reopened = IcechunkRepository.open(BucketObjectStore.of(storage), PREFIX);
    List<CommitInfo> log = reopened.log(Ref.branch("main"));
    assertThat(log.get(0).id().toString()).isEqualTo(pyCommit);
    assertThat(log.get(0).parentId()).isEqualTo(second);
    assertThat(log.get(0).metadata()).isEqualTo(Map.of("by", "python",
        "depth", Map.of("x", java.util.Arrays.asList(1L, java.util.Collections.singletonMap("y", null)))));
    ReadSession afterPy = reopened.readonlySession(Ref.branch("main"));
    assertThat(afterPy.attributes("/")).containsEntry("python_was_here", true);
    assertThat(afterPy.node("/from_python")).isPresent();

    // ... and Floe commits on top of Python's.
    WritableSession again = reopened.writableSession("main");
    again.setChunk("/from_python", ChunkIndex.of(0), Zstd.compress(TestArrays.int32s(100, 200, 300), 3));
    ObjectId12 third = again.commit("floe on top of python", Map.of("round", 3));
    JsonNode py2 = PythonIcechunk.run("describe", repoDir.toString());
    assertThat(py2.get("branches").get("main").asText()).isEqualTo(third.toString());
    assertThat(longs(py2.get("refs").get("branch:main").get("values").get("/from_python")))
        .containsExactly(100, 200, 300, 3, 2, 1);
    assertLogMatches(reopened.log(Ref.branch("main")), py2.get("log").get("main"));
  }

  @Test
  void floeLosingARaceToPythonGetsAConflictThenRebasesAndLands() {
    IcechunkRepository repo = IcechunkRepository.create(BucketObjectStore.of(storage), PREFIX);
    WritableSession setup = repo.writableSession("main");
    setup.createGroup("/", Map.of());
    ObjectId12 base = setup.commit("setup", Map.of());

    WritableSession floe = repo.writableSession("main");
    floe.createGroup("/from_floe", Map.of("who", "floe"));
    String pyCommit = PythonIcechunk.run("commit-on-top", repoDir.toString(), "main").get("id").asText();

    assertThatThrownBy(() -> floe.commit("floe loses", Map.of()))
        .isInstanceOfSatisfying(CommitConflictException.class, e -> {
          assertThat(e.expectedParent()).isEqualTo(base);
          assertThat(e.actualParent().toString()).isEqualTo(pyCommit);
        });
    floe.rebase();
    ObjectId12 landed = floe.commit("floe after rebase", Map.of());

    JsonNode py = PythonIcechunk.run("describe", repoDir.toString());
    assertThat(py.get("branches").get("main").asText()).isEqualTo(landed.toString());
    JsonNode nodes = py.get("refs").get("branch:main").get("nodes");
    assertThat(nodes.has("/from_floe")).isTrue();
    assertThat(nodes.has("/from_python")).isTrue();
    assertThat(py.get("log").get("main").get(1).get("id").asText()).isEqualTo(pyCommit);
  }

  @Test
  void pythonLosingARaceToFloeRebasesOverFloesTransactionLog() throws Exception {
    IcechunkRepository repo = IcechunkRepository.create(BucketObjectStore.of(storage), PREFIX);
    WritableSession setup = repo.writableSession("main");
    setup.createGroup("/", Map.of());
    setup.setMetadata("/values", TestArrays.arrayJson("int32", new long[] {6}, new long[] {3}, 0,
        false, null, null));
    setup.setChunk("/values", ChunkIndex.of(0), TestArrays.int32s(1, 2, 3));
    setup.setChunk("/values", ChunkIndex.of(1), TestArrays.int32s(4, 5, 6));
    setup.commit("setup", Map.of());

    Path go = dir.resolve("go");
    Process python = PythonIcechunk.start("python-rebases-over", repoDir.toString(), "main", go.toString());
    try (java.io.BufferedReader out = new java.io.BufferedReader(
        new java.io.InputStreamReader(python.getInputStream(), java.nio.charset.StandardCharsets.UTF_8))) {
      String ready = out.readLine();
      assertThat(ready).as("python session ready").isNotNull().contains("ready");
      // Floe commits a disjoint change (chunk 0) while Python's session is open on the old tip.
      WritableSession floe = repo.writableSession("main");
      floe.setChunk("/values", ChunkIndex.of(0), TestArrays.int32s(10, 20, 30));
      ObjectId12 floeCommit = floe.commit("floe wins", Map.of());
      java.nio.file.Files.createFile(go);
      String line = out.readLine();
      assertThat(python.waitFor(5, java.util.concurrent.TimeUnit.MINUTES)).isTrue();
      assertThat(python.exitValue()).isZero();
      JsonNode result = PythonIcechunk.JSON.readTree(line);
      assertThat(result.get("conflicted").asBoolean()).isTrue();
      assertThat(longs(result.get("values"))).containsExactly(10, 20, 30, 30, 40, 50);
      List<CommitInfo> log =
          IcechunkRepository.open(BucketObjectStore.of(storage), PREFIX).log(Ref.branch("main"));
      assertThat(log.get(0).id().toString()).isEqualTo(result.get("id").asText());
      assertThat(log.get(1).id()).isEqualTo(floeCommit);
    } finally {
      python.destroy();
    }
  }

  // ------------------------------------------------------------ helpers

  private static String chunkKey(String path, ChunkIndex index) {
    StringBuilder key = new StringBuilder(path.equals("/") ? "" : path.substring(1) + "/");
    key.append("c");
    for (long c : index.coords()) {
      key.append('/').append(c);
    }
    return key.toString();
  }

  private static JsonNode parse(byte[] json) {
    try {
      return PythonIcechunk.JSON.readTree(json);
    } catch (java.io.IOException e) {
      throw new AssertionError(e);
    }
  }

  /** Java values through a JSON round trip, so numbers compare as Python's JSON parses them. */
  private static JsonNode toJson(Object value) {
    try {
      Object plain = value;
      if (value instanceof Map<?, ?> m) {
        Map<String, Object> copy = new TreeMap<>();
        m.forEach((k, v) -> copy.put(String.valueOf(k), v instanceof ObjectId12 ? v.toString() : v));
        plain = copy;
      }
      return PythonIcechunk.JSON.readTree(PythonIcechunk.JSON.writeValueAsString(plain));
    } catch (java.io.IOException e) {
      throw new AssertionError(e);
    }
  }

  private static JsonNode textMap(JsonNode node) {
    return toJson(PythonIcechunk.JSON.convertValue(node, Map.class));
  }

  private static double[] doubles(JsonNode array) {
    List<Double> out = new ArrayList<>();
    array.forEach(n -> out.add(n.asDouble()));
    return out.stream().mapToDouble(Double::doubleValue).toArray();
  }

  private static long[] longs(JsonNode array) {
    List<Long> out = new ArrayList<>();
    array.forEach(n -> out.add(n.asLong()));
    return out.stream().mapToLong(Long::longValue).toArray();
  }
}
