package io.floe.adapters.icechunk.icechest;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeFalse;

import com.fasterxml.jackson.databind.JsonNode;
import io.floe.adapters.icechunk.engine.IcechunkRepository;
import io.floe.adapters.icechunk.engine.PythonIcechunk;
import io.floe.adapters.icechunk.engine.Ref;
import io.floe.adapters.icechunk.format.ObjectId12;
import io.floe.adapters.icechunk.port.BucketObjectStore;
import io.floe.adapters.storage.local.LocalBucketStorage;
import io.floe.domain.StoragePath;
import java.nio.file.Path;
import java.util.Iterator;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The convention between Floe and Python: icechunk plus PyIceberg write a store the way icechest
 * does and Floe reads its tables at every snapshot; Floe writes one and Python finds the tables
 * through the convention and loads each pointed-at metadata.json with PyIceberg.
 */
class IcechestInteropTest {
  private static final String SCRIPT = "icechest_interop.py";
  private static final StoragePath PREFIX = new StoragePath("repos/icechest");

  @TempDir
  Path dir;

  @BeforeAll
  static void requirePython() {
    assumeFalse(PythonIcechunk.skipRequested(), "floe.skipPythonInterop=true");
    PythonIcechunk.requireAvailable();
  }

  private Path repoDir() {
    return dir.resolve(PREFIX.value());
  }

  private IcechunkRepository open() {
    return IcechunkRepository.open(BucketObjectStore.of(new LocalBucketStorage(dir)), PREFIX);
  }

  @Test
  void floeReadsTheTablesOfAStorePythonWroteAtEverySnapshotAndTag() {
    JsonNode python = PythonIcechunk.runScript(SCRIPT, "build", repoDir().toString(),
        dir.resolve("warehouse").toString());
    IcechunkRepository repo = open();
    for (JsonNode snapshot : python.get("history").get("main")) {
      assertMatches(IcechestTables.read(repo, ObjectId12.parse(snapshot.get("snapshot").asText())),
          snapshot);
    }
    assertMatches(IcechestTables.read(repo, Ref.tag("v1")), python.get("tags").get("v1"));
    SnapshotTables main = IcechestTables.read(repo, Ref.branch("main"));
    assertThat(main.tables()).containsOnlyKeys("granules", "quality");
    assertThat(main.tables().get("quality").group()).isEqualTo("/qa");
    assertThat(IcechestTables.read(repo, Ref.tag("v1")).tables()).containsOnlyKeys("granules");
  }

  @Test
  void pythonFindsAndLoadsTheTablesOfAStoreFloeWrote() {
    String warehouse = dir.resolve("warehouse").toString();
    JsonNode granules = PythonIcechunk.runScript(SCRIPT, "table-metadata", warehouse, "granules");
    JsonNode quality = PythonIcechunk.runScript(SCRIPT, "table-metadata", warehouse, "quality");
    IcechunkRepository repo =
        IcechunkRepository.create(BucketObjectStore.of(new LocalBucketStorage(dir)), PREFIX);

    TableCommitSession s = TableCommitSession.open(repo, "main");
    s.arrays().createGroup("/", Map.of("title", "from floe"));
    s.createTable("/", "granules", granules.get("location").asText(),
        granules.get("metadata").asText());
    ObjectId12 first = s.commit("create granules", Map.of());
    repo.createTag("v1", first);
    String next = PythonIcechunk.runScript(SCRIPT, "next-version",
        granules.get("metadata").asText(), "2").get("metadata").asText();
    s.arrays().createGroup("/arrays", Map.of());
    s.moveTable("granules", next);
    s.commit("arrays and a table version together", Map.of("author", "floe"));
    s.createTable("/qa", "quality", quality.get("location").asText(),
        quality.get("metadata").asText());
    s.commit("create quality", Map.of());
    s.arrays().createGroup("/plain", Map.of());
    s.commit("arrays only: both pointers carried forward", Map.of());

    JsonNode python = PythonIcechunk.runScript(SCRIPT, "read", repoDir().toString());
    JsonNode main = python.get("branches").get("main");
    assertThat(main.get("pointers").get("granules").asText()).isEqualTo(next);
    assertThat(main.get("tables").get("quality").get("group").asText()).isEqualTo("/qa");
    assertThat(main.get("loaded").get("granules").get("properties").get("step").asText())
        .isEqualTo("2");
    assertThat(main.get("loaded").get("quality").get("fields").toString())
        .isEqualTo("[\"granule\",\"rows\"]");
    JsonNode tagged = python.get("tags").get("v1");
    assertThat(tagged.get("pointers").get("granules").asText())
        .isEqualTo(granules.get("metadata").asText());
    assertThat(tagged.get("tables").has("quality")).isFalse();
    for (JsonNode snapshot : python.get("history").get("main")) {
      assertMatches(IcechestTables.read(repo, ObjectId12.parse(snapshot.get("snapshot").asText())),
          snapshot);
    }
  }

  @Test
  void aPythonCommitThatDropsThePointerIsMalformedAndNothingFallsBack() {
    PythonIcechunk.runScript(SCRIPT, "build-malformed", repoDir().toString(),
        dir.resolve("warehouse").toString());
    IcechunkRepository repo = open();
    SnapshotTables tip = IcechestTables.read(repo, Ref.branch("main"));
    assertThat(tip.problems()).extracting(TablesProblem::kind)
        .containsExactly(TablesProblem.Kind.MISSING_POINTER);
    assertThatThrownBy(() -> tip.metadataLocation("granules"))
        .isInstanceOf(MalformedTablesException.class);
    ObjectId12 parent = repo.log(Ref.branch("main")).get(1).id();
    assertThat(IcechestTables.read(repo, parent).metadataLocation("granules")).isNotBlank();
    assertThat(repo.readonlySession(Ref.branch("main")).node("/values")).isPresent();
  }

  private static void assertMatches(SnapshotTables floe, JsonNode python) {
    assertThat(floe.snapshot().toString()).isEqualTo(python.get("snapshot").asText());
    assertThat(floe.isWellFormed()).as("problems at " + floe.snapshot()).isTrue();
    Map<String, String> pointers = new TreeMap<>();
    python.get("pointers").fields().forEachRemaining(e -> pointers.put(e.getKey(), e.getValue().asText()));
    assertThat(floe.pointers()).isEqualTo(pointers);
    Map<String, String> declared = new TreeMap<>();
    for (Iterator<Map.Entry<String, JsonNode>> it = python.get("tables").fields(); it.hasNext(); ) {
      Map.Entry<String, JsonNode> e = it.next();
      declared.put(e.getKey(), e.getValue().get("group").asText() + " "
          + e.getValue().get("location").asText());
    }
    Map<String, String> floeDeclared = new TreeMap<>();
    floe.tables().forEach((name, t) -> floeDeclared.put(name, t.group() + " " + t.location()));
    assertThat(floeDeclared).isEqualTo(declared);
    floe.tables().keySet().forEach(name ->
        assertThat(floe.metadataLocation(name)).isEqualTo(pointers.get(name)));
  }
}
