package io.floe.adapters.icechunk.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeFalse;

import com.fasterxml.jackson.core.json.JsonReadFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.json.JsonMapper;
import io.floe.adapters.icechunk.port.BucketObjectStore;
import io.floe.adapters.storage.local.LocalBucketStorage;
import io.floe.application.port.out.BucketStorage;
import io.floe.domain.StoragePath;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Every JSON shape as commit metadata (FlexBuffers) and as Zarr attributes (JSON), written by
 * Python Icechunk 2.3 and read by Floe, and written by Floe and read by Python. The oracle is what
 * Python reads back from its own writing: Floe must read Python's bytes to the same values, and
 * Python must read Floe's bytes to the same values too.
 */
class MetadataCorpusInteropTest {
  private static final StoragePath PREFIX = new StoragePath("repos/corpus");
  private static final ObjectMapper LENIENT = JsonMapper.builder()
      .enable(JsonReadFeature.ALLOW_NON_NUMERIC_NUMBERS).build();

  /** Scalars of each type, numbers at every FlexBuffers width boundary, lists and maps. */
  static final List<String> CORPUS = corpus();

  @TempDir
  Path dir;

  @BeforeAll
  static void requirePython() {
    assumeFalse(PythonIcechunk.skipRequested(), "floe.skipPythonInterop=true");
    PythonIcechunk.requireAvailable();
  }

  static List<String> corpus() {
    List<String> c = new ArrayList<>(List.of(
        "null", "true", "false", "0", "1", "-1", "0.0", "-0.0", "1.0", "0.5", "0.1", "-2.75",
        "\"\"", "\"plain\"", "\"\\u00e9\\u65e5\\u672c\\ud83e\\uddca\"", "\"nul\\u0000inside\"",
        "\"quote\\\" backslash\\\\ newline\\n tab\\t\"",
        "127", "128", "255", "256", "-128", "-129", "32767", "32768", "65535", "65536",
        "-32768", "-32769", "2147483647", "2147483648", "4294967295", "4294967296",
        "-2147483648", "-2147483649", "9223372036854775807", "9223372036854775808",
        "18446744073709551615", "-9223372036854775808", "18446744073709551616",
        "-9223372036854775809", "100000000000000000000000000000",
        "3.4028234663852886e38", "3.5e38", "1.401298464324817e-45", "5e-324", "1e308",
        "16777216.0", "16777217.0", "1e-7", "123456789.123",
        "NaN", "Infinity", "-Infinity",
        "[]", "[null]", "[null, null]", "[1]", "[1, 2]", "[1, 2, 3]", "[1, 2, 3, 4]",
        "[1, 2, 3, 4, 5]", "[-1, -2]", "[-1, -2, -3]", "[-1, -2, -3, -4]", "[-1, 2]",
        "[1.5, 2.5]", "[1.5, 2.5, 3.5]", "[1.5, 2.5, 3.5, 4.5]", "[0.1, 0.2]", "[1, 2.5]",
        "[1.0, 2.0]", "[true, false]", "[true, false, true, true, false]", "[\"a\", \"b\"]",
        "[1, 300]", "[1, 70000]", "[1, 4294967296]", "[1, 18446744073709551615]",
        "[-1, -300]", "[-1, -70000]", "[-1, -4294967296]", "[1, 300, 70000]",
        "[1, 300, 70000, 4294967296]", "[0.5, 0.1, 3.5e38, 1e-300]",
        "[1, \"a\", null, true, 1.5, {}, []]", "[[]]", "[[1, 2], [3]]", "[[1, 2], [3.5, 4.5]]",
        "[{\"a\": 1}, {\"b\": [true]}]", "[\"x\", [\"y\", [\"z\", [1, 2]]]]",
        "{}", "{\"a\": 1}", "{\"a\": {\"b\": {\"c\": [1, {\"d\": null}]}}}",
        "{\"\\u00e9\": 1, \"\\u65e5\\u672c\": [1, 2], \"\\ud83e\\uddca\": {\"x\": 1}, \"\": 0,"
            + " \"a b\": 5, \"B\": 6, \"a\": 7}",
        "{\"ints\": [1, 2], \"floats\": [1.5, 2.5], \"bools\": [true, false], \"empty\": {}}",
        "{\"nested\": {\"list\": [[1, 2, 3], {\"k\": \"v\"}], \"n\": -5, \"f\": 2.25}}"));
    c.add(json("x".repeat(70_000)));
    c.add(json("\u00e9".repeat(300)));
    StringBuilder longList = new StringBuilder("[");
    for (int i = 0; i < 1000; i++) {
      longList.append(i == 0 ? "" : ", ").append(i * 7919L % 100_003);
    }
    c.add(longList.append("]").toString());
    StringBuilder manyKeys = new StringBuilder("{");
    for (int i = 0; i < 300; i++) {
      manyKeys.append(i == 0 ? "" : ", ").append("\"key").append(i).append("\": ").append(i);
    }
    c.add(manyKeys.append("}").toString());
    c.add("[".repeat(40) + "1" + "]".repeat(40));
    c.add("{\"a\": ".repeat(40) + "null" + "}".repeat(40));
    return c;
  }

  private static String json(String text) {
    try {
      return new ObjectMapper().writeValueAsString(text);
    } catch (java.io.IOException e) {
      throw new AssertionError(e);
    }
  }

  @Test
  void floeReadsEveryShapePythonWritesAsPythonReadsIt() throws Exception {
    Path repoDir = dir.resolve(PREFIX.value());
    JsonNode python = PythonIcechunk.run("corpus-write", repoDir.toString(), corpusFile().toString());
    BucketStorage storage = new LocalBucketStorage(dir);
    IcechunkRepository repo = IcechunkRepository.open(BucketObjectStore.of(storage), PREFIX);

    Map<String, Object> floeCommits = new TreeMap<>();
    for (CommitInfo c : repo.log(Ref.branch("main"))) {
      if (c.message().startsWith("case ")) {
        floeCommits.put(c.message().substring(5), c.metadata().get("v"));
      }
    }
    assertThat(floeCommits).hasSize(CORPUS.size());
    ReadSession session = repo.readonlySession(Ref.branch("main"));
    Set<Integer> refused = refused(python);
    for (int i = 0; i < CORPUS.size(); i++) {
      String what = "case " + i + " " + abbreviate(CORPUS.get(i));
      assertThat(normalized(floeCommits.get(String.valueOf(i)))).as("commit metadata, " + what)
          .isEqualTo(normalized(python.get("commits").get(String.valueOf(i))));
      if (!refused.contains(i)) {
        assertThat(normalized(session.attributes("/case" + i).get("v"))).as("attributes, " + what)
            .isEqualTo(normalized(python.get("attributes").get(String.valueOf(i))));
      }
    }
  }

  @Test
  void pythonReadsEveryShapeFloeWritesAsItReadsItsOwn() throws Exception {
    Path file = corpusFile();
    JsonNode expected = PythonIcechunk.run("corpus-write", dir.resolve("python").toString(),
        file.toString());
    Set<Integer> refusedByPython = refused(expected);

    BucketStorage storage = new LocalBucketStorage(dir);
    IcechunkRepository repo = IcechunkRepository.create(BucketObjectStore.of(storage), PREFIX);
    WritableSession s = repo.writableSession("main");
    s.createGroup("/", Map.of());
    Set<Integer> refusedByFloe = new HashSet<>();
    for (int i = 0; i < CORPUS.size(); i++) {
      Object value = value(CORPUS.get(i));
      try {
        s.createGroup("/case" + i, java.util.Collections.singletonMap("v", value));
      } catch (IllegalArgumentException e) {
        refusedByFloe.add(i);
      }
    }
    s.commit("attributes", Map.of());
    assertThat(refusedByFloe).as("attribute values Floe refuses, as Python does")
        .isEqualTo(refusedByPython);
    for (int i = 0; i < CORPUS.size(); i++) {
      s.setAttributes("/", Map.of("case", i));
      s.commit("case " + i, java.util.Collections.singletonMap("v", value(CORPUS.get(i))));
    }

    JsonNode python = PythonIcechunk.run("corpus-read", dir.resolve(PREFIX.value()).toString());
    for (int i = 0; i < CORPUS.size(); i++) {
      String what = "case " + i + " " + abbreviate(CORPUS.get(i));
      String key = String.valueOf(i);
      assertThat(normalized(python.get("commits").get(key))).as("commit metadata, " + what)
          .isEqualTo(normalized(expected.get("commits").get(key)));
      if (!refusedByPython.contains(i)) {
        assertThat(normalized(python.get("attributes").get(key))).as("attributes, " + what)
            .isEqualTo(normalized(expected.get("attributes").get(key)));
      }
    }
  }

  @Test
  void floeRefusesNonFiniteAttributesLikePythonButStoresThemAsNullMetadata() {
    IcechunkRepository repo =
        IcechunkRepository.create(BucketObjectStore.of(new LocalBucketStorage(dir)), PREFIX);
    WritableSession s = repo.writableSession("main");
    assertThatThrownBy(() -> s.createGroup("/", Map.of("v", Double.NaN)))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("NaN");
    s.createGroup("/", Map.of());
    s.commit("nan", java.util.Collections.singletonMap("v", Double.POSITIVE_INFINITY));
    assertThat(repo.log(Ref.branch("main")).get(0).metadata())
        .isEqualTo(java.util.Collections.singletonMap("v", null));
  }

  private Path corpusFile() throws java.io.IOException {
    Path file = dir.resolve("corpus.json");
    Files.writeString(file, "[" + String.join(",\n", CORPUS) + "]");
    return file;
  }

  private static Set<Integer> refused(JsonNode python) {
    Set<Integer> out = new HashSet<>();
    python.get("refused_attributes").forEach(n -> out.add(n.asInt()));
    return out;
  }

  /** A corpus entry as the Java value Floe is asked to write. */
  private static Object value(String json) {
    try {
      return JsonValues.toJava(LENIENT.readTree(json));
    } catch (java.io.IOException e) {
      throw new AssertionError(e);
    }
  }

  /**
   * Through JSON text and back, so both sides compare as parsed JSON: integers by value, floats
   * as doubles, 1 and 1.0 still different, map order ignored.
   */
  private static JsonNode normalized(Object value) {
    try {
      return LENIENT.readTree(LENIENT.writeValueAsString(value));
    } catch (java.io.IOException e) {
      throw new AssertionError(e);
    }
  }

  private static String abbreviate(String s) {
    return s.length() <= 60 ? s : s.substring(0, 60) + "...";
  }
}
