package io.floe.bootstrap;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import io.floe.adapters.icechunk.engine.CommitInfo;
import io.floe.adapters.icechunk.engine.IcechunkRepository;
import io.floe.adapters.icechunk.engine.Ref;
import io.floe.adapters.icechunk.engine.WritableSession;
import io.floe.adapters.icechunk.icechest.IcebergConvention;
import io.floe.adapters.icechunk.icechest.IcechestTables;
import io.floe.adapters.icechunk.icechest.SnapshotTables;
import io.floe.adapters.icechunk.icechest.TableCommitSession;
import io.floe.adapters.icechunk.port.BucketObjectStore;
import io.floe.adapters.storage.local.LocalBucketStorage;
import io.floe.domain.StoragePath;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.DataFiles;
import org.apache.iceberg.MetadataUpdate;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Schema;
import org.apache.iceberg.SortOrder;
import org.apache.iceberg.Table;
import org.apache.iceberg.UpdateRequirement;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.exceptions.ForbiddenException;
import org.apache.iceberg.exceptions.NoSuchNamespaceException;
import org.apache.iceberg.exceptions.NoSuchTableException;
import org.apache.iceberg.rest.RESTCatalog;
import org.apache.iceberg.rest.requests.UpdateTableRequest;
import org.apache.iceberg.rest.requests.UpdateTableRequestParser;
import org.apache.iceberg.types.Types;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The tables a repo declares, served by the Iceberg REST catalog to Iceberg's Java client: a
 * repo is a namespace (the head of main), {@code repo@branch} another branch, {@code repo@tag} a
 * fixed version. Each table commit is one Icechunk commit moving that table's pointer.
 */
@FloeServerTest
class RepoTablesTest {
  private static final Schema SCHEMA = new Schema(
      Types.NestedField.required(1, "granule", Types.StringType.get()),
      Types.NestedField.optional(2, "rows", Types.LongType.get()));

  private static TestFloe floe;
  private TestFloe.Org org;
  private RESTCatalog catalog;
  private ManagementApi api;
  private IcechunkRepository repository;
  private Path repoDirectory;

  @BeforeAll
  static void start(TestFloe shared) {
    floe = shared;
  }

  @BeforeEach
  void freshOrgWithARepo() {
    org = floe.newOrg();
    catalog = floe.catalog(org, Map.of());
    api = new ManagementApi(floe.server().port(), org.token());
    ManagementApi.Reply created = api.post("/orgs/" + org.warehouse() + "/repos",
        Map.of("name", "weather"));
    assertThat(created.status()).isEqualTo(201);
    repoDirectory = Path.of(URI.create(created.body().get("location").asText()));
    repository =
        IcechunkRepository.open(BucketObjectStore.of(new LocalBucketStorage(repoDirectory)),
        StoragePath.root());
  }

  @AfterEach
  void close() throws Exception {
    catalog.close();
  }

  @Test
  void aRepoWhoseStorageCannotBeReadHidesNoOtherNamespace() throws Exception {
    catalog.createNamespace(Namespace.of("plain"));
    repository.createBranch("dev", repository.resolve(Ref.branch("main")));
    ManagementApi.Reply broken = api.post("/orgs/" + org.warehouse() + "/repos",
        Map.of("name", "broken"));
    assertThat(broken.status()).isEqualTo(201);
    // Its repo file gone, as when its storage is unreachable: its refs cannot be read.
    Files.delete(Path.of(URI.create(broken.body().get("location").asText())).resolve("repo"));

    assertThat(catalog.listNamespaces()).contains(Namespace.of("plain"),
        Namespace.of("weather"), Namespace.of("weather@dev"), Namespace.of("broken"));
  }

  @Test
  void creatingATableInARepoDeclaresItWithItsFirstPointerInOneIcechunkCommit() {
    Table table = catalog.createTable(TableIdentifier.of("weather", "granules"), SCHEMA);

    assertThat(catalog.listNamespaces()).contains(Namespace.of("weather"));
    assertThat(catalog.listTables(Namespace.of("weather")))
        .containsExactly(TableIdentifier.of("weather", "granules"));
    assertThat(table.properties()).containsEntry("gc.enabled", "false")
        .containsEntry("write.metadata.delete-after-commit.enabled", "false");
    assertThat(table.location()).startsWith(repoUri() + "/tables/granules-");

    CommitInfo head = repository.log(Ref.branch("main")).get(0);
    assertThat(head.message()).contains("granules");
    SnapshotTables declared = IcechestTables.read(repository, head.id());
    assertThat(declared.isWellFormed()).isTrue();
    assertThat(declared.tables().get("granules").group()).isEqualTo("/");
    assertThat(declared.metadataLocation("granules")).isEqualTo(metadataLocation(table));
  }

  @Test
  void aTableCommitIsOneIcechunkCommitThatCarriesOtherTablesAndLeavesArraysAlone() {
    Table granules = catalog.createTable(TableIdentifier.of("weather", "granules"), SCHEMA);
    Table quality = catalog.createTable(TableIdentifier.of("weather", "quality"), SCHEMA);
    // An array writer that follows the convention carries every table's pointer forward.
    TableCommitSession arrays = TableCommitSession.open(repository, "main");
    arrays.arrays().setMetadata("/reflectance", IcechunkS3RaceTest.int32ArrayJson(4, 2));
    arrays.commit("arrays", Map.of("by", "test"));
    int commitsBefore = repository.log(Ref.branch("main")).size();

    granules.newFastAppend().appendFile(file(granules, "g-1")).commit();

    List<CommitInfo> log = repository.log(Ref.branch("main"));
    assertThat(log).hasSize(commitsBefore + 1);
    SnapshotTables head = IcechestTables.read(repository, log.get(0).id());
    assertThat(head.metadataLocation("granules"))
        .isEqualTo(metadataLocation(catalog.loadTable(TableIdentifier.of("weather", "granules"))));
    assertThat(head.metadataLocation("quality")).isEqualTo(metadataLocation(quality));
    assertThat(repository.readonlySession(Ref.branch("main")).node("/reflectance")).isPresent();
  }

  @Test
  void aTagIsAFixedVersionThatRefusesWritesNamingTheTag() {
    TableIdentifier granules = TableIdentifier.of("weather", "granules");
    Table table = catalog.createTable(granules, SCHEMA);
    table.newFastAppend().appendFile(file(table, "before-tag")).commit();
    repository.createTag("v1", repository.resolve(Ref.branch("main")));
    table.newFastAppend().appendFile(file(table, "after-tag")).commit();

    assertThat(catalog.listNamespaces()).contains(Namespace.of("weather@v1"));
    Table tagged = catalog.loadTable(TableIdentifier.of("weather@v1", "granules"));
    assertThat(files(tagged)).hasSize(1);
    assertThat(files(catalog.loadTable(granules))).hasSize(2);
    assertThatThrownBy(() -> tagged.newFastAppend().appendFile(file(tagged, "no")).commit())
        .isInstanceOf(ForbiddenException.class).hasMessageContaining("tag v1");
    assertThatThrownBy(() -> catalog.createTable(TableIdentifier.of("weather@v1", "new"), SCHEMA))
        .isInstanceOf(ForbiddenException.class).hasMessageContaining("tag v1");
  }

  @Test
  void aBranchIsAWritableNamespaceOfItsOwn() {
    TableIdentifier granules = TableIdentifier.of("weather", "granules");
    Table table = catalog.createTable(granules, SCHEMA);
    repository.createBranch("dev", repository.resolve(Ref.branch("main")));

    Table onDev = catalog.loadTable(TableIdentifier.of("weather@dev", "granules"));
    onDev.newFastAppend().appendFile(file(onDev, "dev-only")).commit();

    assertThat(catalog.listNamespaces()).contains(Namespace.of("weather@dev"));
    assertThat(files(catalog.loadTable(TableIdentifier.of("weather@dev", "granules"))))
        .hasSize(1);
    assertThat(files(catalog.loadTable(granules))).isEmpty();
    assertThat(files(table)).isEmpty();
    String snapshot = repository.resolve(Ref.branch("dev")).toString();
    assertThat(files(catalog.loadTable(TableIdentifier.of("weather@" + snapshot, "granules"))))
        .hasSize(1);
  }

  @Test
  void dropPurgeAndRenameOfARepoTableAreRefused() {
    TableIdentifier granules = TableIdentifier.of("weather", "granules");
    catalog.createTable(granules, SCHEMA);

    assertThatThrownBy(() -> catalog.dropTable(granules, false))
        .isInstanceOf(ForbiddenException.class).hasMessageContaining("repo weather");
    assertThatThrownBy(() -> catalog.dropTable(granules, true))
        .isInstanceOf(ForbiddenException.class).hasMessageContaining("purge");
    catalog.createNamespace(Namespace.of("plain"));
    assertThatThrownBy(() -> catalog.renameTable(granules, TableIdentifier.of("plain", "g")))
        .isInstanceOf(ForbiddenException.class).hasMessageContaining("rename");
    assertThat(catalog.tableExists(granules)).isTrue();
  }

  @Test
  void concurrentAppendsToARepoTableAllLandAsIcechunkCommits() throws Exception {
    TableIdentifier id = TableIdentifier.of("weather", "granules");
    catalog.createTable(id, SCHEMA);
    int writers = 6;
    int appendsEach = 4;
    CountDownLatch start = new CountDownLatch(1);
    ExecutorService pool = Executors.newFixedThreadPool(writers);
    List<Future<List<String>>> written = new ArrayList<>();
    try {
      for (int w = 0; w < writers; w++) {
        int writer = w;
        written.add(pool.submit(() -> {
          try (RESTCatalog own = floe.catalog(org, Map.of("commit.retry.num-retries", "0"))) {
            start.await();
            List<String> paths = new ArrayList<>();
            for (int i = 0; i < appendsEach; i++) {
              Table table = own.loadTable(id);
              DataFile file = file(table, "w" + writer + "-" + i);
              table.newFastAppend().appendFile(file).commit();
              paths.add(file.location());
            }
            return paths;
          }
        }));
      }
      start.countDown();
      Set<String> expected = new HashSet<>();
      for (Future<List<String>> result : written) {
        expected.addAll(result.get());
      }
      assertThat(files(catalog.loadTable(id))).isEqualTo(expected);
      assertThat(repository.log(Ref.branch("main"))).hasSize(2 + writers * appendsEach);
    } finally {
      pool.shutdownNow();
    }
  }

  @Test
  void repoNamespacesAreTheAdminsOnly() {
    catalog.createTable(TableIdentifier.of("weather", "granules"), SCHEMA);
    ManagementApi.Reply user = api.post("/orgs/" + org.warehouse() + "/users",
        Map.of("name", "Ada", "external_id", "ada@example.com"));
    JsonNode token = api.post("/orgs/" + org.warehouse() + "/tokens",
        Map.of("principal_id", user.body().get("id").asText())).body();
    try (RESTCatalog ada = floe.catalog(new TestFloe.Org(org.warehouse(),
        token.get("token").asText()), Map.of())) {
      assertThat(ada.listNamespaces()).doesNotContain(Namespace.of("weather"));
      assertThatThrownBy(() -> ada.loadTable(TableIdentifier.of("weather", "granules")))
          .isInstanceOf(NoSuchTableException.class);
      assertThatThrownBy(() -> ada.listTables(Namespace.of("weather")))
          .isInstanceOf(NoSuchNamespaceException.class);
    } catch (Exception e) {
      throw new AssertionError(e);
    }
  }

  @Test
  void aTransactionRefusedForItsSecondOrThirdTableWritesNoFileAndNoCommit() throws Exception {
    for (String name : List.of("a", "b", "c")) {
      catalog.createTable(TableIdentifier.of("weather", name), SCHEMA);
    }
    IcebergHttp http = new IcebergHttp(floe, org);
    Set<Path> files = filesOf(repoDirectory.resolve("tables"));
    int commits = repository.log(Ref.branch("main")).size();

    IcebergHttp.Reply conflict = http.post("/transactions/commit", transaction(
        change("a", List.of(), Map.of("mine", "yes")),
        change("b", List.of(Map.of("type", "assert-table-uuid",
            "uuid", "00000000-0000-0000-0000-00000000dead")), Map.of("mine", "yes"))));
    assertThat(conflict.status()).isEqualTo(409);
    IcebergHttp.Reply refused = http.post("/transactions/commit", transaction(
        change("a", List.of(), Map.of("mine", "yes")),
        change("b", List.of(), Map.of("mine", "yes")),
        change("c", List.of(), Map.of("gc.enabled", "true"))));
    assertThat(refused.status()).isEqualTo(403);
    assertThat(refused.message()).contains("gc.enabled");

    assertThat(filesOf(repoDirectory.resolve("tables"))).isEqualTo(files);
    assertThat(repository.log(Ref.branch("main"))).hasSize(commits);
  }

  @Test
  void aStagedCreateNeverNestsItsTableInsideOrAroundAnotherTableOfTheRepo() throws Exception {
    Table granules = catalog.createTable(TableIdentifier.of("weather", "granules"), SCHEMA);
    // A writer outside Floe declared a table deeper in the tables directory.
    TableCommitSession outside = TableCommitSession.open(repository, "main");
    outside.createTable("/", "deep", repoUri() + "/tables/outer/deep",
        repoUri() + "/tables/outer/deep/metadata/v1.metadata.json");
    outside.commit("python declares a table", Map.of());
    IcebergHttp http = new IcebergHttp(floe, org);
    Set<Path> files = filesOf(repoDirectory.resolve("tables"));

    for (String location : List.of(granules.location() + "/nested", repoUri() + "/tables/outer",
        granules.location())) {
      IcebergHttp.Reply reply = http.post("/namespaces/weather/tables/staged",
          stagedCreate(location));
      assertThat(reply.status()).as(location).isEqualTo(403);
      assertThat(reply.message()).as(location).contains("never share");
    }
    assertThat(catalog.tableExists(TableIdentifier.of("weather", "staged"))).isFalse();
    assertThat(filesOf(repoDirectory.resolve("tables"))).isEqualTo(files);

    IcebergHttp.Reply apart = http.post("/namespaces/weather/tables/staged",
        stagedCreate(repoUri() + "/tables/staged-apart"));
    assertThat(apart.status()).isEqualTo(200);
  }

  @Test
  void aHeadThatDeclaresATableWithoutItsPointerRefusesWritesWithAConflict() {
    Table granules = catalog.createTable(TableIdentifier.of("weather", "granules"), SCHEMA);
    WritableSession session = repository.writableSession("main");
    session.setAttributes("/", IcebergConvention.declare(session.attributes("/"), "orphan",
        repoUri() + "/tables/orphan"));
    session.commit("python declared a table and forgot its pointer",
        Map.of(IcebergConvention.TABLE_VERSIONS_KEY,
            Map.of("granules", metadataLocation(granules))), false);
    int commits = repository.log(Ref.branch("main")).size();
    IcebergHttp http = new IcebergHttp(floe, org);

    IcebergHttp.Reply create = http.post("/namespaces/weather/tables",
        "{\"name\":\"fresh\",\"schema\":{\"type\":\"struct\",\"fields\":[]}}");
    assertThat(create.status()).isEqualTo(409);
    assertThat(create.message()).contains("orphan", "without a pointer");
    IcebergHttp.Reply commit = http.post("/namespaces/weather/tables/granules",
        transactionChange(List.of(), Map.of("mine", "yes")));
    assertThat(commit.status()).isEqualTo(409);
    assertThat(repository.log(Ref.branch("main"))).hasSize(commits);
    // Reading is still fine: the table that has its pointer loads.
    assertThat(catalog.loadTable(TableIdentifier.of("weather", "granules")).properties())
        .doesNotContainKey("mine");
  }

  @SafeVarargs
  private static String transaction(Map<String, Object>... changes) {
    return json(Map.of("table-changes", List.of(changes)));
  }

  private static Map<String, Object> change(String table, List<Map<String, Object>> requirements,
      Map<String, String> properties) {
    return Map.of("identifier", Map.of("namespace", List.of("weather"), "name", table),
        "requirements", requirements,
        "updates", List.of(Map.of("action", "set-properties", "updates", properties)));
  }

  private static String transactionChange(List<Map<String, Object>> requirements,
      Map<String, String> properties) {
    return json(Map.of("requirements", requirements,
        "updates", List.of(Map.of("action", "set-properties", "updates", properties))));
  }

  /** The commit that finishes a staged create at {@code location}, as Java's client sends it. */
  private static String stagedCreate(String location) {
    return UpdateTableRequestParser.toJson(UpdateTableRequest.create(null,
        List.of(new UpdateRequirement.AssertTableDoesNotExist()),
        List.of(new MetadataUpdate.AssignUUID(java.util.UUID.randomUUID().toString()),
            new MetadataUpdate.UpgradeFormatVersion(2),
            new MetadataUpdate.AddSchema(SCHEMA),
            new MetadataUpdate.SetCurrentSchema(-1),
            new MetadataUpdate.AddPartitionSpec(PartitionSpec.unpartitioned()),
            new MetadataUpdate.SetDefaultPartitionSpec(-1),
            new MetadataUpdate.AddSortOrder(SortOrder.unsorted()),
            new MetadataUpdate.SetDefaultSortOrder(-1),
            new MetadataUpdate.SetProperties(Map.of("gc.enabled", "false",
                "write.metadata.delete-after-commit.enabled", "false")),
            new MetadataUpdate.SetLocation(location))));
  }

  private static String json(Object value) {
    try {
      return new com.fasterxml.jackson.databind.ObjectMapper().writeValueAsString(value);
    } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
      throw new AssertionError(e);
    }
  }

  private static Set<Path> filesOf(Path directory) throws java.io.IOException {
    if (!Files.exists(directory)) {
      return Set.of();
    }
    try (var walk = Files.walk(directory)) {
      return walk.filter(Files::isRegularFile).collect(java.util.stream.Collectors.toSet());
    }
  }

  private String repoUri() {
    return api.get("/orgs/" + org.warehouse() + "/repos/weather").body().get("location").asText()
        .replaceAll("/$", "");
  }

  private static String metadataLocation(Table table) {
    return ((org.apache.iceberg.BaseTable) table).operations().current().metadataFileLocation();
  }

  private static Set<String> files(Table table) {
    Set<String> present = new HashSet<>();
    table.newScan().planFiles().forEach(task -> present.add(task.file().location()));
    return present;
  }

  private static DataFile file(Table table, String name) {
    return DataFiles.builder(PartitionSpec.unpartitioned())
        .withPath(table.location() + "/data/" + name + ".parquet")
        .withFileSizeInBytes(100).withRecordCount(1).build();
  }
}
