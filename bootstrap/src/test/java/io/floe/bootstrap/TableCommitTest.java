package io.floe.bootstrap;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.floe.adapters.rest.iceberg.RestJson;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.stream.Stream;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.DataFiles;
import org.apache.iceberg.MetadataUpdate;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Schema;
import org.apache.iceberg.Table;
import org.apache.iceberg.TableProperties;
import org.apache.iceberg.UpdateRequirement;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.exceptions.BadRequestException;
import org.apache.iceberg.exceptions.ForbiddenException;
import org.apache.iceberg.rest.RESTCatalog;
import org.apache.iceberg.rest.requests.CommitTransactionRequest;
import org.apache.iceberg.rest.requests.UpdateTableRequest;
import org.apache.iceberg.types.Types;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Commits as engines make them: atomic, compare-and-swap, confined to the table's prefix. */
@FloeServerTest
class TableCommitTest {
  private static final Schema SCHEMA = new Schema(
      Types.NestedField.required(1, "id", Types.LongType.get()),
      Types.NestedField.optional(2, "name", Types.StringType.get()));
  private static final HttpClient HTTP = HttpClient.newHttpClient();

  @TempDir static Path directory;
  private static TestFloe floe;
  private TestFloe.Org org;
  private RESTCatalog catalog;
  private final Namespace ns = Namespace.of("sales");

  @BeforeAll
  static void start(TestFloe shared) {
    floe = shared;
  }

  @BeforeEach
  void freshOrg() {
    org = floe.newOrg();
    catalog = floe.catalog(org, Map.of());
    catalog.createNamespace(ns);
  }

  @AfterEach
  void close() throws IOException {
    catalog.close();
  }

  @Test
  void aCommitWhoseRequirementFailsLeavesTheTableExactlyAsItWas() throws Exception {
    Table table = catalog.createTable(TableIdentifier.of(ns, "orders"), SCHEMA);
    String before = metadataLocation(table);
    long filesBefore = metadataFiles(table);

    HttpResponse<String> response = commit("orders", UpdateTableRequest.create(null,
        List.of(new UpdateRequirement.AssertCurrentSchemaID(99)),
        List.of(new MetadataUpdate.SetProperties(Map.of("k", "v")))));

    assertThat(response.statusCode()).isEqualTo(409);
    assertThat(response.body()).contains("CommitFailedException");
    Table reloaded = catalog.loadTable(TableIdentifier.of(ns, "orders"));
    assertThat(metadataLocation(reloaded)).isEqualTo(before);
    assertThat(reloaded.properties()).doesNotContainKey("k");
    assertThat(metadataFiles(reloaded)).isEqualTo(filesBefore);
  }

  @Test
  void racingWritersNeverLoseACommittedSnapshot() throws Exception {
    TableIdentifier id = TableIdentifier.of(ns, "events");
    catalog.createTable(id, SCHEMA, PartitionSpec.unpartitioned(),
        Map.of(TableProperties.COMMIT_NUM_RETRIES, "50",
            TableProperties.COMMIT_MIN_RETRY_WAIT_MS, "5",
            TableProperties.COMMIT_MAX_RETRY_WAIT_MS, "50"));
    int writers = 4;
    int appendsEach = 5;
    CountDownLatch start = new CountDownLatch(1);
    ExecutorService pool = Executors.newFixedThreadPool(writers);
    List<Future<List<String>>> written = new ArrayList<>();
    try {
      for (int w = 0; w < writers; w++) {
        int writer = w;
        Callable<List<String>> work = () -> {
          try (RESTCatalog own = floe.catalog(org, Map.of())) {
            start.await();
            List<String> paths = new ArrayList<>();
            for (int i = 0; i < appendsEach; i++) {
              Table table = own.loadTable(id);
              DataFile file = dataFile(table, "w" + writer + "-" + i);
              table.newFastAppend().appendFile(file).commit();
              paths.add(file.location());
            }
            return paths;
          }
        };
        written.add(pool.submit(work));
      }
      start.countDown();
      Set<String> expected = new HashSet<>();
      for (Future<List<String>> result : written) {
        expected.addAll(result.get());
      }
      Table table = catalog.loadTable(id);
      Set<String> present = new HashSet<>();
      table.newScan().planFiles().forEach(task -> present.add(task.file().location()));
      assertThat(present).isEqualTo(expected);
      assertThat(table.snapshots()).hasSize(writers * appendsEach);
    } finally {
      pool.shutdownNow();
    }
  }

  @Test
  void loadTableAnswersNotModifiedForTheETagOfTheCurrentVersion() throws Exception {
    Table table = catalog.createTable(TableIdentifier.of(ns, "cached"), SCHEMA);
    HttpResponse<String> first = send(tableRequest("cached").GET().build());
    String etag = first.headers().firstValue("ETag").orElseThrow();
    HttpResponse<String> again =
        send(tableRequest("cached").header("If-None-Match", etag).GET().build());
    assertThat(again.statusCode()).isEqualTo(304);
    assertThat(again.body()).isEmpty();

    table.updateProperties().set("changed", "yes").commit();
    HttpResponse<String> changed =
        send(tableRequest("cached").header("If-None-Match", etag).GET().build());
    assertThat(changed.statusCode()).isEqualTo(200);
    assertThat(changed.headers().firstValue("ETag")).isPresent().get().isNotEqualTo(etag);
  }

  /** RFC 9110: "*" matches any current version, and a list matches when any tag in it does. */
  @Test
  void ifNoneMatchFollowsRfc9110() throws Exception {
    catalog.createTable(TableIdentifier.of(ns, "conditional"), SCHEMA);
    String etag = send(tableRequest("conditional").GET().build()).headers()
        .firstValue("ETag").orElseThrow();
    for (String condition : List.of("*", "\"other\", " + etag, "W/" + etag)) {
      HttpResponse<String> reply =
          send(tableRequest("conditional").header("If-None-Match", condition).GET().build());
      assertThat(reply.statusCode()).as(condition).isEqualTo(304);
      assertThat(reply.headers().firstValue("ETag")).contains(etag);
    }
    assertThat(send(tableRequest("conditional").header("If-None-Match", "\"other\"").GET()
        .build()).statusCode()).isEqualTo(200);
    assertThat(send(tableRequest("absent").header("If-None-Match", "*").GET().build())
        .statusCode()).isEqualTo(404);
  }

  @Test
  void noUpdateMayPointTheTableOutsideItsPrefix() throws Exception {
    Table table = catalog.createTable(TableIdentifier.of(ns, "confined"), SCHEMA);
    String before = metadataLocation(table);
    for (String property : List.of(TableProperties.WRITE_DATA_LOCATION,
        TableProperties.WRITE_METADATA_LOCATION, TableProperties.OBJECT_STORE_PATH)) {
      assertThatThrownBy(() -> table.updateProperties()
          .set(property, directory.resolve("elsewhere").toUri().toString()).commit())
          .isInstanceOf(ForbiddenException.class)
          .hasMessageContaining("outside the table's storage prefix");
      // Not canonical: refused as a bad request before it is compared with anything.
      assertThatThrownBy(() -> table.updateProperties()
          .set(property, table.location() + "/../neighbour").commit())
          .isInstanceOf(BadRequestException.class).hasMessageContaining(property);
    }
    table.updateProperties().set(TableProperties.WRITE_DATA_LOCATION, table.location() + "/d")
        .commit();
    assertThat(metadataLocation(catalog.loadTable(TableIdentifier.of(ns, "confined"))))
        .isNotEqualTo(before);
  }

  @Test
  void aRequestToMoveTheTableIsIgnored() throws Exception {
    Table table = catalog.createTable(TableIdentifier.of(ns, "anchored"), SCHEMA);
    HttpResponse<String> response = commit("anchored", UpdateTableRequest.create(null, List.of(),
        List.of(new MetadataUpdate.SetLocation("file:///tmp/somewhere-else"))));
    assertThat(response.statusCode()).isEqualTo(200);
    assertThat(catalog.loadTable(TableIdentifier.of(ns, "anchored")).location())
        .isEqualTo(table.location());
  }

  @Test
  void aMultiTableTransactionCommitsAllOrNothing() throws Exception {
    catalog.createTable(TableIdentifier.of(ns, "a"), SCHEMA);
    catalog.createTable(TableIdentifier.of(ns, "b"), SCHEMA);
    UpdateTableRequest goodChange = UpdateTableRequest.create(TableIdentifier.of(ns, "a"),
        List.of(), List.of(new MetadataUpdate.SetProperties(Map.of("batch", "1"))));
    UpdateTableRequest failingChange = UpdateTableRequest.create(TableIdentifier.of(ns, "b"),
        List.of(new UpdateRequirement.AssertCurrentSchemaID(42)),
        List.of(new MetadataUpdate.SetProperties(Map.of("batch", "1"))));
    HttpResponse<String> response = send(request("/transactions/commit").POST(
        HttpRequest.BodyPublishers.ofString(RestJson.write(
            new CommitTransactionRequest(List.of(goodChange, failingChange))))).build());
    assertThat(response.statusCode()).isEqualTo(409);
    assertThat(catalog.loadTable(TableIdentifier.of(ns, "a")).properties())
        .doesNotContainKey("batch");

    UpdateTableRequest fixedChange = UpdateTableRequest.create(TableIdentifier.of(ns, "b"),
        List.of(), List.of(new MetadataUpdate.SetProperties(Map.of("batch", "1"))));
    assertThat(send(request("/transactions/commit").POST(HttpRequest.BodyPublishers.ofString(
        RestJson.write(new CommitTransactionRequest(List.of(goodChange, fixedChange)))))
        .build()).statusCode()).isEqualTo(204);
    assertThat(catalog.loadTable(TableIdentifier.of(ns, "a")).properties()).containsEntry("batch", "1");
    assertThat(catalog.loadTable(TableIdentifier.of(ns, "b")).properties()).containsEntry("batch", "1");
  }

  @Test
  void droppingWithPurgeKeepsEveryFile() throws Exception {
    TableIdentifier id = TableIdentifier.of(ns, "kept");
    Table table = catalog.createTable(id, SCHEMA);
    table.newFastAppend().appendFile(dataFile(table, "f")).commit();
    Path root = Path.of(URI.create(table.location()));
    long files = countFiles(root);
    assertThat(catalog.dropTable(id, true)).isTrue();
    assertThat(catalog.tableExists(id)).isFalse();
    assertThat(countFiles(root)).isEqualTo(files).isPositive();
  }

  @Test
  void tablesRenameAcrossNamespacesOfTheOrgAndKeepTheirFiles() {
    Namespace other = Namespace.of("archive");
    catalog.createNamespace(other);
    Table table = catalog.createTable(TableIdentifier.of(ns, "moving"), SCHEMA);
    catalog.renameTable(TableIdentifier.of(ns, "moving"), TableIdentifier.of(other, "moved"));
    Table moved = catalog.loadTable(TableIdentifier.of(other, "moved"));
    assertThat(moved.location()).isEqualTo(table.location());
    assertThat(catalog.tableExists(TableIdentifier.of(ns, "moving"))).isFalse();
  }

  @Test
  void theServerChoosesTheLocationUnderTheNamespacePrefix() {
    Table table = catalog.buildTable(TableIdentifier.of(ns, "placed"), SCHEMA)
        .withLocation(directory.resolve("my-choice").toUri().toString()).create();
    assertThat(table.location()).contains("_sales/placed-").doesNotContain("my-choice");
  }

  @Test
  void loadingWithSnapshotsRefsReturnsOnlyReferencedSnapshots() throws Exception {
    Table table = catalog.createTable(TableIdentifier.of(ns, "history"), SCHEMA);
    table.newFastAppend().appendFile(dataFile(table, "one")).commit();
    table.newFastAppend().appendFile(dataFile(table, "two")).commit();
    com.fasterxml.jackson.databind.ObjectMapper json = new com.fasterxml.jackson.databind.ObjectMapper();
    HttpResponse<String> all = send(tableRequest("history").GET().build());
    HttpResponse<String> refs = HTTP.send(HttpRequest.newBuilder(URI.create(floe.uri() + "/v1/"
            + org.warehouse() + "/namespaces/sales/tables/history?snapshots=refs"))
        .header("Authorization", "Bearer " + org.token()).GET().build(),
        HttpResponse.BodyHandlers.ofString());
    assertThat(json.readTree(all.body()).at("/metadata/snapshots").size()).isEqualTo(2);
    assertThat(json.readTree(refs.body()).at("/metadata/snapshots").size()).isEqualTo(1);
    assertThat(refs.headers().firstValue("ETag")).isNotEqualTo(all.headers().firstValue("ETag"));
  }

  @Test
  void aSecondEntryCannotBeRegisteredOverATableThatLivesThere() {
    Table table = catalog.createTable(TableIdentifier.of(ns, "original"), SCHEMA);
    assertThatThrownBy(() -> catalog.registerTable(TableIdentifier.of(ns, "shadow"),
        metadataLocation(table)))
        .isInstanceOf(org.apache.iceberg.exceptions.AlreadyExistsException.class)
        .hasMessageContaining("already used");
    assertThat(catalog.tableExists(TableIdentifier.of(ns, "shadow"))).isFalse();
    // Once the original is dropped, its files can be adopted under a new name.
    catalog.dropTable(TableIdentifier.of(ns, "original"), false);
    catalog.registerTable(TableIdentifier.of(ns, "adopted"), metadataLocation(table));
    assertThat(catalog.loadTable(TableIdentifier.of(ns, "adopted")).location())
        .isEqualTo(table.location());
  }

  @Test
  void aBucketOverrideCannotBeCombinedWithAStagedCreate() {
    assertThatThrownBy(() -> catalog.buildTable(TableIdentifier.of(ns, "staged"), SCHEMA)
        .withProperty("floe.bucket", "default").createTransaction())
        .isInstanceOf(org.apache.iceberg.exceptions.BadRequestException.class)
        .hasMessageContaining("floe.bucket").hasMessageContaining("staged create");
    assertThat(catalog.tableExists(TableIdentifier.of(ns, "staged"))).isFalse();
  }

  @Test
  void aStagedCreateHandsOutALocationWhoseDirectoriesAlreadyExist() throws Exception {
    // Engines such as DuckDB write data files and manifests there before the create commits,
    // and create no directories themselves.
    org.apache.iceberg.Transaction staged = catalog.buildTable(
        TableIdentifier.of(ns, "staged_ctas"), SCHEMA).createTransaction();
    Path location = Path.of(URI.create(staged.table().location()));
    assertThat(location.resolve("data")).isEmptyDirectory();
    assertThat(location.resolve("metadata")).isEmptyDirectory();
    assertThat(catalog.tableExists(TableIdentifier.of(ns, "staged_ctas"))).isFalse();

    staged.newAppend().appendFile(dataFile(staged.table(), "first")).commit();
    staged.commitTransaction();
    assertThat(catalog.loadTable(TableIdentifier.of(ns, "staged_ctas")).location())
        .isEqualTo(staged.table().location());
  }

  @Test
  void aRefusedStagedCreateLeavesNoDirectoryBehind() throws Exception {
    Path bucket = floe.bucketDirectory(org);
    List<Path> before = paths(bucket);
    assertThatThrownBy(() -> catalog.buildTable(TableIdentifier.of(ns, "escaping"), SCHEMA)
        .withProperty(TableProperties.WRITE_DATA_LOCATION, bucket.toUri() + "elsewhere")
        .createTransaction())
        .isInstanceOf(ForbiddenException.class);
    assertThat(paths(bucket)).isEqualTo(before);
  }

  private static List<Path> paths(Path root) throws IOException {
    try (Stream<Path> paths = Files.walk(root)) {
      return paths.sorted().toList();
    }
  }

  @Test
  void anUnknownBucketOverrideIsABadRequestAndCreatesNothing() {
    assertThatThrownBy(() -> catalog.buildTable(TableIdentifier.of(ns, "nowhere"), SCHEMA)
        .withProperty("floe.bucket", "no-such-bucket").create())
        .isInstanceOf(org.apache.iceberg.exceptions.BadRequestException.class)
        .hasMessageContaining("no-such-bucket");
    assertThat(catalog.tableExists(TableIdentifier.of(ns, "nowhere"))).isFalse();
  }

  private static DataFile dataFile(Table table, String name) {
    return DataFiles.builder(PartitionSpec.unpartitioned())
        .withPath(table.location() + "/data/" + name + ".parquet")
        .withFileSizeInBytes(100).withRecordCount(1).build();
  }

  private static String metadataLocation(Table table) {
    return ((org.apache.iceberg.BaseTable) table).operations().current().metadataFileLocation();
  }

  private static long metadataFiles(Table table) throws IOException {
    return countFiles(Path.of(URI.create(table.location())).resolve("metadata"));
  }

  private static long countFiles(Path root) throws IOException {
    try (Stream<Path> files = Files.walk(root)) {
      return files.filter(Files::isRegularFile).count();
    }
  }

  private HttpResponse<String> commit(String table, UpdateTableRequest change) throws Exception {
    return send(tableRequest(table).POST(HttpRequest.BodyPublishers.ofString(RestJson.write(change)))
        .build());
  }

  private HttpRequest.Builder tableRequest(String table) {
    return request("/namespaces/" + ns.level(0) + "/tables/" + table);
  }

  private HttpRequest.Builder request(String path) {
    return HttpRequest.newBuilder(URI.create(floe.uri() + "/v1/" + org.warehouse() + path))
        .header("Authorization", "Bearer " + org.token());
  }

  private static HttpResponse<String> send(HttpRequest request) throws Exception {
    return HTTP.send(request, HttpResponse.BodyHandlers.ofString());
  }
}
