package io.floe.bootstrap;

import static org.assertj.core.api.Assertions.assertThat;

import io.floe.application.iceberg.replay.ConflictFilter;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.floe.adapters.rest.iceberg.RestJson;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.ByteBuffer;
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
import java.util.function.Consumer;
import org.apache.iceberg.BaseTable;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.DataFiles;
import org.apache.iceberg.LocationProviders;
import org.apache.iceberg.MetadataUpdate;
import org.apache.iceberg.Metrics;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Schema;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.SnapshotSummary;
import org.apache.iceberg.Table;
import org.apache.iceberg.TableMetadata;
import org.apache.iceberg.TableOperations;
import org.apache.iceberg.TableProperties;
import org.apache.iceberg.UpdateRequirements;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.expressions.ExpressionParser;
import org.apache.iceberg.expressions.Expressions;
import org.apache.iceberg.io.FileIO;
import org.apache.iceberg.io.LocationProvider;
import org.apache.iceberg.rest.RESTCatalog;
import org.apache.iceberg.rest.requests.UpdateTableRequest;
import org.apache.iceberg.types.Conversions;
import org.apache.iceberg.types.Types;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Server-side replay with Iceberg's own Java client: an append that lost the race to another
 * writer's commit is rebased onto the new head by the server instead of failing; a delete is
 * replayed only when the rows added meanwhile cannot match its predicate.
 */
@FloeServerTest
class ServerSideReplayTest {
  private static final Schema SCHEMA = new Schema(
      Types.NestedField.required(1, "id", Types.LongType.get()),
      Types.NestedField.optional(2, "name", Types.StringType.get()));
  /** The client gives up at the first 409: what lands was replayed by the server. */
  private static final Map<String, String> NO_CLIENT_RETRIES =
      Map.of(TableProperties.COMMIT_NUM_RETRIES, "0");

  private static final HttpClient HTTP = HttpClient.newHttpClient();

  private static TestFloe floe;
  private TestFloe.Org org;
  private RESTCatalog catalog;
  private final Namespace ns = Namespace.of("replay");

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
  void sixteenJavaClientsWithDefaultSettingsAppendTenTimesEachAndEveryAppendLands()
      throws Exception {
    TableIdentifier id = TableIdentifier.of(ns, "events");
    catalog.createTable(id, SCHEMA);
    Set<String> expected = appendConcurrently(id, 16, 10, false);

    Table table = catalog.loadTable(id);
    assertThat(liveFiles(table)).isEqualTo(expected);
    assertThat(table.snapshots()).hasSize(160);
    assertLinearHistoryWithExactTotals(table, 160);
  }

  @Test
  void appendsThatLoseTheRaceAreAcknowledgedByTheServerItselfWithoutClientRetries()
      throws Exception {
    TableIdentifier id = TableIdentifier.of(ns, "readings");
    catalog.createTable(id, SCHEMA, PartitionSpec.unpartitioned(), NO_CLIENT_RETRIES);
    Set<String> expected = appendConcurrently(id, 8, 5, true);

    Table table = catalog.loadTable(id);
    assertThat(liveFiles(table)).isEqualTo(expected);
    assertLinearHistoryWithExactTotals(table, 40);
  }

  @Test
  void aStaleAppendKeepsItsSnapshotIdAndItsCustomSummaryButGetsTheNextSequenceNumber() {
    TableIdentifier id = TableIdentifier.of(ns, "stale");
    catalog.createTable(id, SCHEMA, PartitionSpec.unpartitioned(), NO_CLIENT_RETRIES);
    Table stale = catalog.loadTable(id);
    Table winner = catalog.loadTable(id);
    winner.newFastAppend().appendFile(file(winner, "first", 1, 10)).commit();

    stale.newFastAppend().appendFile(file(stale, "second", 11, 20))
        .set("engine.job", "nightly").commit();

    Table table = catalog.loadTable(id);
    Snapshot replayed = table.currentSnapshot();
    assertThat(replayed.parentId()).isEqualTo(winner.currentSnapshot().snapshotId());
    assertThat(replayed.sequenceNumber())
        .isEqualTo(winner.currentSnapshot().sequenceNumber() + 1);
    assertThat(replayed.summary()).containsEntry("engine.job", "nightly")
        .containsEntry(SnapshotSummary.TOTAL_RECORDS_PROP, "20")
        .containsEntry(SnapshotSummary.TOTAL_DATA_FILES_PROP, "2");
    assertThat(stale.currentSnapshot().snapshotId()).isEqualTo(replayed.snapshotId());
    assertThat(liveFiles(table)).hasSize(2);
  }

  @Test
  void aDeleteRacingAnAppendOfMatchingRowsIsAConflictNamingBothSnapshots() throws Exception {
    TableIdentifier id = TableIdentifier.of(ns, "matching");
    catalog.createTable(id, SCHEMA);
    Table setup = catalog.loadTable(id);
    DataFile old = file(setup, "old", 1, 10);
    setup.newFastAppend().appendFile(old).commit();
    long base = setup.currentSnapshot().snapshotId();
    TableMetadata stale = metadata(catalog.loadTable(id));
    Table appender = catalog.loadTable(id);
    appender.newFastAppend().appendFile(file(appender, "new", 5, 5)).commit();
    long winner = appender.currentSnapshot().snapshotId();

    HttpResponse<String> response = commitOn(id, stale, table -> table.newDelete()
        .deleteFile(old)
        .set(ConflictFilter.SUMMARY_PROPERTY,
            ExpressionParser.toJson(Expressions.equal("id", 5)))
        .commit());

    assertThat(response.statusCode()).isEqualTo(409);
    JsonNode error = new ObjectMapper().readTree(response.body()).get("error");
    assertThat(error.get("type").asText()).isEqualTo("ReplayConflictException");
    assertThat(error.get("message").asText()).contains("replay.matching",
        String.valueOf(base), String.valueOf(winner),
        ExpressionParser.toJson(Expressions.equal("id", 5)));
    assertThat(liveFiles(catalog.loadTable(id))).hasSize(2);
  }

  @Test
  void aDeleteRacingAnAppendOfRowsItsPredicateCannotMatchIsReplayed() throws Exception {
    TableIdentifier id = TableIdentifier.of(ns, "disjoint");
    catalog.createTable(id, SCHEMA);
    Table setup = catalog.loadTable(id);
    DataFile old = file(setup, "old", 1, 10);
    setup.newFastAppend().appendFile(old).commit();
    TableMetadata stale = metadata(catalog.loadTable(id));
    Table appender = catalog.loadTable(id);
    DataFile added = file(appender, "new", 100, 200);
    appender.newFastAppend().appendFile(added).commit();

    HttpResponse<String> response = commitOn(id, stale, table -> table.newDelete()
        .deleteFile(old)
        .set(ConflictFilter.SUMMARY_PROPERTY,
            ExpressionParser.toJson(Expressions.lessThan("id", 50)))
        .commit());

    assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
    Table table = catalog.loadTable(id);
    assertThat(liveFiles(table)).containsExactly(added.location());
    assertThat(table.currentSnapshot().operation()).isEqualTo("delete");
    assertThat(table.currentSnapshot().parentId())
        .isEqualTo(appender.currentSnapshot().snapshotId());
    assertThat(table.currentSnapshot().summary())
        .containsEntry(SnapshotSummary.TOTAL_RECORDS_PROP, "101");
  }

  @Test
  void aDeleteWithoutAStatedPredicateReplaysOnlyWhenNobodyAddedRows() throws Exception {
    TableIdentifier id = TableIdentifier.of(ns, "unstated");
    catalog.createTable(id, SCHEMA);
    Table setup = catalog.loadTable(id);
    DataFile first = file(setup, "first", 1, 10);
    DataFile second = file(setup, "second", 11, 20);
    DataFile third = file(setup, "third", 21, 30);
    setup.newFastAppend().appendFile(first).appendFile(second).appendFile(third).commit();

    TableMetadata before = metadata(catalog.loadTable(id));
    catalog.loadTable(id).newDelete().deleteFile(second).commit();
    assertThat(commitOn(id, before, table -> table.newDelete().deleteFile(first).commit())
        .statusCode()).isEqualTo(200);
    assertThat(liveFiles(catalog.loadTable(id))).containsExactly(third.location());

    TableMetadata stale = metadata(catalog.loadTable(id));
    catalog.loadTable(id).newFastAppend().appendFile(file(setup, "fourth", 31, 40)).commit();
    HttpResponse<String> refused =
        commitOn(id, stale, table -> table.newDelete().deleteFile(third).commit());
    assertThat(refused.statusCode()).isEqualTo(409);
    assertThat(refused.body()).contains("every row");
    assertThat(liveFiles(catalog.loadTable(id))).hasSize(2);
  }

  @Test
  void aDeleteOfAFileAnotherWriterRemovedMeanwhileIsAConflict() throws Exception {
    TableIdentifier id = TableIdentifier.of(ns, "removed");
    catalog.createTable(id, SCHEMA);
    Table setup = catalog.loadTable(id);
    DataFile first = file(setup, "first", 1, 10);
    setup.newFastAppend().appendFile(first).appendFile(file(setup, "second", 11, 20)).commit();
    TableMetadata stale = metadata(catalog.loadTable(id));
    catalog.loadTable(id).newDelete().deleteFile(first).commit();

    HttpResponse<String> refused =
        commitOn(id, stale, table -> table.newDelete().deleteFile(first).commit());

    assertThat(refused.statusCode()).isEqualTo(409);
    assertThat(refused.body()).contains("ReplayConflictException", "first.parquet");
  }

  /**
   * Sends the commit a client holding {@code stale} would send for {@code change}: built with
   * iceberg-core on that version, with the requirements Iceberg derives for it. (Iceberg's Java
   * client refreshes right before it commits, so it loses races only in that short window; this
   * reproduces the loss deterministically.)
   */
  private HttpResponse<String> commitOn(TableIdentifier id, TableMetadata stale,
      Consumer<Table> change) throws Exception {
    CapturingOperations ops = new CapturingOperations(stale, catalog.loadTable(id).io());
    change.accept(new BaseTable(ops, id.toString()));
    List<MetadataUpdate> updates = ops.committed.changes();
    UpdateTableRequest request = UpdateTableRequest.create(id,
        UpdateRequirements.forUpdateTable(stale, updates), updates);
    return HTTP.send(HttpRequest.newBuilder(URI.create(floe.uri() + "/v1/" + org.warehouse()
                + "/namespaces/" + ns.level(0) + "/tables/" + id.name()))
            .header("Authorization", "Bearer " + org.token())
            .POST(HttpRequest.BodyPublishers.ofString(RestJson.write(request))).build(),
        HttpResponse.BodyHandlers.ofString());
  }

  private static TableMetadata metadata(Table table) {
    return ((BaseTable) table).operations().current();
  }

  /** Table operations on a fixed version that keep what a change commits instead of sending it. */
  private static final class CapturingOperations implements TableOperations {
    private final TableMetadata base;
    private final FileIO io;
    private TableMetadata committed;

    CapturingOperations(TableMetadata base, FileIO io) {
      this.base = base;
      this.io = io;
    }

    @Override
    public TableMetadata current() {
      return committed != null ? committed : base;
    }

    @Override
    public TableMetadata refresh() {
      return current();
    }

    @Override
    public void commit(TableMetadata expected, TableMetadata metadata) {
      committed = metadata;
    }

    @Override
    public FileIO io() {
      return io;
    }

    @Override
    public String metadataFileLocation(String fileName) {
      return base.location() + "/metadata/" + fileName;
    }

    @Override
    public LocationProvider locationProvider() {
      return LocationProviders.locationsFor(base.location(), base.properties());
    }
  }

  /** Each writer appends {@code appendsEach} files through a client of its own. */
  private Set<String> appendConcurrently(TableIdentifier id, int writers, int appendsEach,
      boolean fast) throws Exception {
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
              DataFile file = file(table, "w" + writer + "-" + i, i, i + 9);
              if (fast) {
                table.newFastAppend().appendFile(file).commit();
              } else {
                table.newAppend().appendFile(file).commit();
              }
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
      return expected;
    } finally {
      pool.shutdownNow();
    }
  }

  /** Every snapshot's parent is the one before it, and the totals add up to every file. */
  private static void assertLinearHistoryWithExactTotals(Table table, int appends) {
    Snapshot current = table.currentSnapshot();
    assertThat(current.summary())
        .containsEntry(SnapshotSummary.TOTAL_DATA_FILES_PROP, String.valueOf(appends))
        .containsEntry(SnapshotSummary.TOTAL_RECORDS_PROP, String.valueOf(appends * 10L));
    int depth = 0;
    long sequence = Long.MAX_VALUE;
    for (Snapshot s = current; s != null;
        s = s.parentId() == null ? null : table.snapshot(s.parentId())) {
      assertThat(s.sequenceNumber()).isLessThan(sequence);
      sequence = s.sequenceNumber();
      depth++;
    }
    assertThat(depth).isEqualTo(appends);
  }

  private static Set<String> liveFiles(Table table) {
    Set<String> present = new HashSet<>();
    table.newScan().planFiles().forEach(task -> present.add(task.file().location()));
    return present;
  }

  /** A data file of ten rows (or {@code high - low + 1}) whose ids lie in [low, high]. */
  private static DataFile file(Table table, String name, long low, long high) {
    long rows = Math.max(high - low + 1, 1);
    Map<Integer, ByteBuffer> lower = Map.of(1, Conversions.toByteBuffer(Types.LongType.get(), low));
    Map<Integer, ByteBuffer> upper =
        Map.of(1, Conversions.toByteBuffer(Types.LongType.get(), high));
    return DataFiles.builder(PartitionSpec.unpartitioned())
        .withPath(table.location() + "/data/" + name + ".parquet")
        .withFileSizeInBytes(100)
        .withMetrics(new Metrics(rows, null, Map.of(1, rows), Map.of(1, 0L), null, lower, upper))
        .build();
  }
}
