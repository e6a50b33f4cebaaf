package io.floe.adapters.icechunk.icechest;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.floe.adapters.icechunk.engine.CommitConflictException;
import io.floe.adapters.icechunk.engine.IcechunkNotFoundException;
import io.floe.adapters.icechunk.engine.IcechunkRepository;
import io.floe.adapters.icechunk.engine.Ref;
import io.floe.adapters.icechunk.engine.WritableSession;
import io.floe.adapters.icechunk.format.ObjectId12;
import io.floe.adapters.icechunk.port.BucketObjectStore;
import io.floe.adapters.storage.local.LocalBucketStorage;
import io.floe.domain.StoragePath;
import java.io.IOException;
import java.io.InputStream;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The convention's schema and examples, and the reading and writing API on a Floe repository. */
class IcechestConventionTest {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final StoragePath PREFIX = new StoragePath("repos/tables");

  @TempDir
  Path dir;
  IcechunkRepository repo;

  @BeforeEach
  void setUp() {
    repo = IcechunkRepository.create(BucketObjectStore.of(new LocalBucketStorage(dir)), PREFIX);
  }

  @Test
  void examplesValidateAgainstTheShippedSchemas() throws Exception {
    for (Path example : examples("valid")) {
      assertThat(check(example)).as(example.getFileName().toString()).isEmpty();
    }
    for (Path example : examples("invalid")) {
      assertThat(check(example)).as(example.getFileName().toString()).isNotEmpty();
    }
    // What Floe itself writes conforms too.
    Map<String, Object> declared = IcebergConvention.declare(Map.of("title", "t"), "granules",
        "s3://b/w/granules");
    JsonNode group = JSON.valueToTree(Map.of("zarr_format", 3, "node_type", "group",
        "attributes", declared));
    assertThat(ConventionSchema.checkGroup(group)).isEmpty();
  }

  private static List<String> check(Path example) throws IOException {
    JsonNode doc = JSON.readTree(example.toFile());
    return example.getFileName().toString().startsWith("commit-metadata")
        ? ConventionSchema.checkCommitMetadata(doc) : ConventionSchema.checkGroup(doc);
  }

  private static List<Path> examples(String kind) throws IOException, URISyntaxException {
    Path folder = Path.of(IcechestConventionTest.class
        .getResource("/conventions/icechunk-iceberg/examples/" + kind).toURI());
    try (Stream<Path> files = Files.list(folder)) {
      List<Path> out = files.sorted().toList();
      assertThat(out).isNotEmpty();
      return out;
    }
  }

  @Test
  void theSchemaShipsInTheJar() throws IOException {
    try (InputStream in = ConventionSchema.class.getResourceAsStream(ConventionSchema.GROUP_SCHEMA)) {
      assertThat(JSON.readTree(in).path("properties").path("attributes").path("properties")
          .has(IcebergConvention.TABLES_ATTRIBUTE)).isTrue();
    }
  }

  @Test
  @SuppressWarnings("unchecked")
  void declaringKeepsOtherAttributesAndConventionsAndNeverMovesABinding() {
    Map<String, Object> other = Map.of("uuid", "f17cb550-5864-4468-aeb7-f3180cfb622f", "name", "proj:");
    Map<String, Object> attrs = Map.of("zarr_conventions", List.of(other), "proj:code", "EPSG:4326");
    Map<String, Object> once = IcebergConvention.declare(attrs, "a", "s3://b/a");
    Map<String, Object> twice = IcebergConvention.declare(once, "b", "s3://b/b");
    assertThat(twice).containsEntry("proj:code", "EPSG:4326");
    assertThat((List<Object>) twice.get("zarr_conventions")).hasSize(2).contains(other);
    assertThat((Map<String, Object>) twice.get("iceberg:tables")).containsOnlyKeys("a", "b");
    assertThat(IcebergConvention.declare(twice, "a", "s3://b/a")).isEqualTo(twice);
    assertThatThrownBy(() -> IcebergConvention.declare(twice, "a", "s3://elsewhere/a"))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("never changes");
  }

  @Test
  void declarationAndFirstPointerLandTogetherAndEveryCommitCarriesAllPointers() {
    TableCommitSession s = TableCommitSession.open(repo, "main");
    s.arrays().createGroup("/", Map.of("title", "arrays and tables"));
    s.createTable("/", "granules", "s3://b/w/granules", "s3://b/w/granules/metadata/0.json");
    ObjectId12 first = s.commit("create granules", Map.of("author", "floe"));

    SnapshotTables at1 = IcechestTables.read(repo, first);
    assertThat(at1.isWellFormed()).isTrue();
    assertThat(at1.metadataLocation("granules")).isEqualTo("s3://b/w/granules/metadata/0.json");
    assertThat(repo.commitInfo(first).metadata()).containsEntry("author", "floe");

    s.createTable("/qa", "quality", "s3://b/w/quality", "s3://b/w/quality/metadata/0.json");
    ObjectId12 second = s.commit("create quality", Map.of());
    s.arrays().createGroup("/more", Map.of());
    ObjectId12 third = s.commit("arrays only", Map.of());
    s.moveTable("granules", "s3://b/w/granules/metadata/1.json");
    ObjectId12 fourth = s.commit("table only", Map.of());

    assertThat(IcechestTables.read(repo, second).tables()).containsOnlyKeys("granules", "quality");
    assertThat(IcechestTables.read(repo, second).tables().get("quality").group()).isEqualTo("/qa");
    assertThat(IcechestTables.read(repo, third).pointers()).isEqualTo(Map.of(
        "granules", "s3://b/w/granules/metadata/0.json",
        "quality", "s3://b/w/quality/metadata/0.json"));
    assertThat(IcechestTables.read(repo, Ref.branch("main")).pointers()).isEqualTo(Map.of(
        "granules", "s3://b/w/granules/metadata/1.json",
        "quality", "s3://b/w/quality/metadata/0.json"));
    assertThat(repo.log(Ref.branch("main")).get(0).id()).isEqualTo(fourth);
    // The first snapshot predates both halves: no tables, and nothing malformed.
    SnapshotTables initial = IcechestTables.read(repo, ObjectId12.INITIAL_SNAPSHOT);
    assertThat(initial.tables()).isEmpty();
    assertThat(initial.isWellFormed()).isTrue();
    assertThatThrownBy(() -> initial.metadataLocation("granules"))
        .isInstanceOf(IcechunkNotFoundException.class);
  }

  @Test
  void aDeclaredTableWithoutAPointerIsReportedNeverResolvedFromAnotherSnapshot() {
    TableCommitSession s = TableCommitSession.open(repo, "main");
    s.arrays().createGroup("/", Map.of());
    s.createTable("/", "granules", "s3://b/w/granules", "s3://b/w/granules/metadata/0.json");
    s.commit("create", Map.of());
    // A writer ignoring the convention: arrays change, pointer dropped.
    WritableSession careless = repo.writableSession("main");
    careless.createGroup("/arrays", Map.of());
    ObjectId12 broken = careless.commit("no pointer", Map.of("author", "careless"));

    SnapshotTables tables = IcechestTables.read(repo, broken);
    assertThat(tables.isWellFormed()).isFalse();
    assertThat(tables.problems()).singleElement().satisfies(p -> {
      assertThat(p.kind()).isEqualTo(TablesProblem.Kind.MISSING_POINTER);
      assertThat(p.subject()).isEqualTo("granules");
    });
    assertThat(tables.tables().get("granules").metadataLocation()).isEmpty();
    assertThatThrownBy(() -> tables.metadataLocation("granules"))
        .isInstanceOf(MalformedTablesException.class).hasMessageContaining(broken.toString());
    assertThat(repo.readonlySession(Ref.snapshot(broken)).node("/arrays")).isPresent();

    TableCommitSession next = TableCommitSession.open(repo, "main");
    next.arrays().createGroup("/x", Map.of());
    assertThatThrownBy(() -> next.commit("cannot carry what is missing", Map.of()))
        .isInstanceOf(MalformedTablesException.class);
    next.moveTable("granules", "s3://b/w/granules/metadata/1.json");
    ObjectId12 repaired = next.commit("repaired", Map.of());
    assertThat(IcechestTables.read(repo, repaired).isWellFormed()).isTrue();
  }

  @Test
  void duplicateNamesAndInvalidDeclarationsAndPointersAreReported() {
    WritableSession s = repo.writableSession("main");
    s.createGroup("/", IcebergConvention.declare(Map.of(), "t", "s3://b/t"));
    s.createGroup("/g", IcebergConvention.declare(Map.of(), "t", "s3://b/other-t"));
    s.createGroup("/bad", Map.of("zarr_conventions", List.of(IcebergConvention.metadataObject()),
        "iceberg:version", 1, "iceberg:tables", Map.of("u", Map.of("location", "s3://b/u"))));
    ObjectId12 id = s.commit("odd", Map.of("iceberg:table_versions", Map.of("t", "s3://b/t/m.json",
        "u", List.of("not", "a", "uri"))));
    SnapshotTables tables = IcechestTables.read(repo, id);
    assertThat(tables.problems()).extracting(TablesProblem::kind).contains(
        TablesProblem.Kind.DUPLICATE_TABLE, TablesProblem.Kind.INVALID_DECLARATION,
        TablesProblem.Kind.INVALID_POINTERS, TablesProblem.Kind.MISSING_POINTER);
    assertThat(tables.metadataLocation("t")).isEqualTo("s3://b/t/m.json");
    assertThat(tables.tables().get("t").group()).isEqualTo("/");
  }

  @Test
  void concurrentCommitsOnDisjointTablesBothLandButTheSameTableConflicts() {
    TableCommitSession setup = TableCommitSession.open(repo, "main");
    setup.arrays().createGroup("/", Map.of());
    setup.createTable("/", "a", "s3://b/a", "s3://b/a/0.json");
    setup.createTable("/", "b", "s3://b/b", "s3://b/b/0.json");
    setup.commit("two tables", Map.of());

    TableCommitSession one = TableCommitSession.open(repo, "main");
    TableCommitSession two = TableCommitSession.open(repo, "main");
    TableCommitSession three = TableCommitSession.open(repo, "main");
    one.moveTable("a", "s3://b/a/1-one.json");
    two.moveTable("b", "s3://b/b/1-two.json");
    three.moveTable("a", "s3://b/a/1-three.json");
    one.commit("one", Map.of());
    assertThatThrownBy(() -> two.commit("two", Map.of())).isInstanceOf(CommitConflictException.class);
    two.commitRebasing("two", Map.of(), 3);
    assertThat(IcechestTables.read(repo, Ref.branch("main")).pointers())
        .isEqualTo(Map.of("a", "s3://b/a/1-one.json", "b", "s3://b/b/1-two.json"));
    assertThatThrownBy(() -> three.commitRebasing("three", Map.of(), 3))
        .isInstanceOfSatisfying(TableConflictException.class, e -> {
          assertThat(e.table()).isEqualTo("a");
          assertThat(e.ourBase()).isEqualTo("s3://b/a/0.json");
          assertThat(e.theirMetadata()).isEqualTo("s3://b/a/1-one.json");
        });
  }
}
