package io.floe.bootstrap;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Function;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.FileFormat;
import org.apache.iceberg.FileScanTask;
import org.apache.iceberg.MetadataColumns;
import org.apache.iceberg.PartitionKey;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.RowDelta;
import org.apache.iceberg.Schema;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.Table;
import org.apache.iceberg.TableProperties;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.data.GenericRecord;
import org.apache.iceberg.data.IcebergGenerics;
import org.apache.iceberg.data.Record;
import org.apache.iceberg.data.parquet.GenericParquetReaders;
import org.apache.iceberg.data.parquet.GenericParquetWriter;
import org.apache.iceberg.deletes.BaseDVFileWriter;
import org.apache.iceberg.io.CloseableIterable;
import org.apache.iceberg.io.DataWriter;
import org.apache.iceberg.io.OutputFileFactory;
import org.apache.iceberg.parquet.Parquet;
import org.apache.iceberg.rest.RESTCatalog;
import org.apache.iceberg.types.Types;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Table maintenance through the management API, on tables written by Iceberg's own Java client
 * with real Parquet files: compaction and expiry keep every row and every tag readable, racing
 * writers lose nothing, orphan removal deletes only old unreferenced files under the table.
 */
@FloeServerTest
class TableMaintenanceTest {
  private static final Schema SCHEMA = new Schema(
      Types.NestedField.required(1, "id", Types.LongType.get()),
      Types.NestedField.required(2, "part", Types.IntegerType.get()),
      Types.NestedField.optional(3, "name", Types.StringType.get()));
  private static final PartitionSpec SPEC =
      PartitionSpec.builderFor(SCHEMA).identity("part").build();
  private static final int PARTITIONS = 4;

  private static TestFloe floe;
  private TestFloe.Org org;
  private RESTCatalog catalog;
  private ManagementApi api;
  private final Namespace ns = Namespace.of("kept");

  @BeforeAll
  static void start(TestFloe shared) {
    floe = shared;
  }

  @BeforeEach
  void newOrg() {
    org = floe.newOrg();
    catalog = floe.catalog(org, Map.of());
    catalog.createNamespace(ns);
    api = new ManagementApi(floe.port(), org.token());
  }

  @AfterEach
  void close() throws IOException {
    catalog.close();
  }

  @Test
  void compactionAndExpiryOfTwoHundredAppendsKeepEveryRowAndTheTag() {
    TableIdentifier id = TableIdentifier.of(ns, "events");
    Table table = catalog.createTable(id, SCHEMA, SPEC);
    long tagged = 0;
    for (long i = 0; i < 200; i++) {
      append(table, List.of(i));
      if (i == 49) {
        tagged = table.currentSnapshot().snapshotId();
        table.manageSnapshots().createTag("first-fifty", tagged).commit();
      }
    }
    table.refresh();
    List<String> before = rows(table);
    long readBefore = timedRead(table);
    assertThat(dataFiles(table)).isEqualTo(200);
    assertThat(before).hasSize(200);

    ManagementApi.Reply dryRun = maintain("events", Map.of("dry_run", true,
        "compact", Map.of("target_file_size_bytes", 8 * 1024 * 1024),
        "expire_snapshots", Map.of("older_than_seconds", 0, "retain_last", 5)));
    assertThat(dryRun.status()).as("%s", dryRun.body()).isEqualTo(200);
    assertThat(dryRun.body().at("/compaction/outcome").asText()).isEqualTo("dry-run");
    assertThat(dryRun.body().at("/compaction/input_files").asInt()).isEqualTo(200);
    assertThat(dryRun.body().at("/compaction/output_files").asInt()).isEqualTo(PARTITIONS);
    assertThat(dryRun.body().at("/expiry/expired_snapshot_ids").size()).isGreaterThan(150);
    table.refresh();
    assertThat(dataFiles(table)).as("a dry run changes nothing").isEqualTo(200);
    assertThat(table.snapshots()).hasSize(200);

    ManagementApi.Reply done = maintain("events", Map.of(
        "compact", Map.of("target_file_size_bytes", 8 * 1024 * 1024),
        "expire_snapshots", Map.of("older_than_seconds", 0, "retain_last", 5),
        "rewrite_manifests", true));
    assertThat(done.status()).as("%s", done.body()).isEqualTo(200);
    assertThat(done.body().at("/compaction/outcome").asText()).isEqualTo("done");
    assertThat(done.body().at("/compaction/output_files").asInt()).isEqualTo(PARTITIONS);

    table.refresh();
    assertThat(dataFiles(table)).isEqualTo(PARTITIONS);
    try (CloseableIterable<FileScanTask> tasks = table.newScan().planFiles()) {
      for (FileScanTask task : tasks) {
        assertThat(task.file().partition().get(0, Integer.class))
            .as("every compacted file holds one partition's rows")
            .isEqualTo((int) (rows(table, task).get(0) % PARTITIONS));
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    // The last five of main (the compaction's among them) and the tag's.
    assertThat(table.snapshots()).hasSizeLessThanOrEqualTo(6);
    assertThat(table.snapshot(tagged)).isNotNull();
    assertThat(rows(table)).containsExactlyInAnyOrderElementsOf(before);
    List<String> taggedRows = read(IcebergGenerics.read(table).useSnapshot(tagged).build());
    assertThat(taggedRows).hasSize(50);
    long readAfter = timedRead(table);
    System.out.printf("full read of the 200-append table: %d ms before, %d ms after; "
        + "data files 200 -> %d; snapshots 200 -> %d%n", readBefore, readAfter,
        dataFiles(table), table.snapshots().spliterator().getExactSizeIfKnown());

    JsonNode audit = api.get("/orgs/" + org.warehouse() + "/audit?action=table.maintain").body();
    assertThat(audit.path("entries")).hasSize(1);
    assertThat(audit.at("/entries/0/target_name").asText()).isEqualTo("kept.events");
  }

  @Test
  void writersRacingCompactionAndExpiryLoseNoRowAndFailNoAppend() throws Exception {
    TableIdentifier id = TableIdentifier.of(ns, "racing");
    catalog.createTable(id, SCHEMA, SPEC, Map.of(TableProperties.COMMIT_NUM_RETRIES, "20"));
    int writers = 8;
    int appendsEach = 10;
    ConcurrentLinkedQueue<Long> acknowledged = new ConcurrentLinkedQueue<>();
    AtomicBoolean writing = new AtomicBoolean(true);
    ExecutorService pool = Executors.newFixedThreadPool(writers + 1);
    try {
      List<Future<?>> appends = new ArrayList<>();
      for (int w = 0; w < writers; w++) {
        long first = w * 1000L;
        appends.add(pool.submit(() -> {
          try (RESTCatalog own = floe.catalog(org, Map.of())) {
            Table table = own.loadTable(id);
            for (long i = first; i < first + appendsEach; i++) {
              table.refresh();
              append(table, List.of(i));
              acknowledged.add(i);
            }
          }
          return null;
        }));
      }
      Future<List<Integer>> maintenance = pool.submit(() -> {
        List<Integer> statuses = new ArrayList<>();
        while (writing.get()) {
          statuses.add(maintain("racing", Map.of(
              "compact", Map.of("target_file_size_bytes", 8 * 1024 * 1024),
              "expire_snapshots", Map.of("older_than_seconds", 0, "retain_last", 3))).status());
        }
        return statuses;
      });
      for (Future<?> append : appends) {
        append.get(); // an append that failed fails the test here
      }
      writing.set(false);
      assertThat(maintenance.get()).isNotEmpty().allMatch(status -> status == 200 || status == 409);
    } finally {
      pool.shutdownNow();
    }
    ManagementApi.Reply last = maintain("racing", Map.of(
        "compact", Map.of("target_file_size_bytes", 8 * 1024 * 1024)));
    assertThat(last.status()).as("%s", last.body()).isEqualTo(200);
    Table table = catalog.loadTable(id);
    List<Long> ids = read(IcebergGenerics.read(table).build(), record -> (Long) record.getField("id"));
    assertThat(ids).hasSize(writers * appendsEach)
        .containsExactlyInAnyOrderElementsOf(acknowledged);
    assertThat(dataFiles(table)).isLessThanOrEqualTo(PARTITIONS);
  }

  @Test
  void orphanRemovalDeletesOnlyOldUnreferencedFilesUnderTheTable() throws Exception {
    TableIdentifier id = TableIdentifier.of(ns, "tidy");
    Table table = catalog.createTable(id, SCHEMA, SPEC);
    for (long i = 0; i < 5; i++) {
      append(table, List.of(i));
    }
    table.refresh();
    Path root = Path.of(java.net.URI.create(table.location()));
    Path oldOrphan = write(root.resolve("data/part=1/left-behind.parquet"));
    Path youngOrphan = write(root.resolve("data/part=2/just-written.parquet"));
    Path outside = write(root.getParent().resolve("not-this-table/old.parquet"));
    Path sibling = write(root.resolveSibling(root.getFileName() + "-sibling").resolve("x.parquet"));
    Instant tenDaysAgo = Instant.now().minus(Duration.ofDays(10));
    List<Path> everything;
    try (Stream<Path> walk = Files.walk(root.getParent())) {
      everything = walk.filter(Files::isRegularFile).toList();
    }
    for (Path file : everything) {
      if (!file.equals(youngOrphan)) {
        Files.setLastModifiedTime(file, FileTime.from(tenDaysAgo));
      }
    }

    ManagementApi.Reply dryRun = maintain("tidy", Map.of("dry_run", true,
        "remove_orphans", Map.of("older_than_seconds", Duration.ofDays(3).toSeconds())));
    assertThat(dryRun.status()).as("%s", dryRun.body()).isEqualTo(200);
    assertThat(dryRun.body().at("/orphans/files").findValuesAsText("key"))
        .containsExactly("data/part=1/left-behind.parquet");
    assertThat(oldOrphan).exists();

    ManagementApi.Reply removed = maintain("tidy", Map.of(
        "remove_orphans", Map.of("older_than_seconds", Duration.ofDays(3).toSeconds())));
    assertThat(removed.status()).as("%s", removed.body()).isEqualTo(200);
    assertThat(removed.body().at("/orphans/spared_young").asInt()).isEqualTo(1);
    assertThat(oldOrphan).doesNotExist();
    assertThat(youngOrphan).exists();
    assertThat(outside).exists();
    assertThat(sibling).exists();
    try (Stream<Path> walk = Files.walk(root)) {
      assertThat(walk.filter(Files::isRegularFile).count())
          .as("every other file under the table is kept").isEqualTo(everything.stream()
              .filter(file -> file.startsWith(root)).count() - 1);
    }
    table.refresh();
    assertThat(rows(table)).hasSize(5);
  }

  @Test
  void theNearestPolicyWinsAndARunWithoutStepsFollowsIt() {
    Table table = catalog.createTable(TableIdentifier.of(ns, "governed"), SCHEMA, SPEC);
    for (long i = 0; i < 12; i++) {
      append(table, List.of(i));
    }
    String base = "/orgs/" + org.warehouse();
    String nsPolicy = base + "/iceberg/namespaces/kept/maintenance-policy";
    String tablePolicy = base + "/iceberg/namespaces/kept/tables/governed/maintenance-policy";
    assertThat(api.get(tablePolicy).body().path("sources").size())
        .as("nothing is on by default").isZero();
    assertThat(api.put(base + "/maintenance-policy", Map.of("min_snapshots_to_keep", 3,
        "snapshot_max_age_seconds", 0)).status()).isEqualTo(200);
    assertThat(api.put(nsPolicy, Map.of("compaction_target_file_size_bytes", 8 * 1024 * 1024))
        .status()).isEqualTo(200);
    ManagementApi.Reply set = api.put(tablePolicy, Map.of("min_snapshots_to_keep", 2));
    assertThat(set.status()).as("%s", set.body()).isEqualTo(200);

    JsonNode view = api.get(tablePolicy).body();
    assertThat(view.at("/policy/min_snapshots_to_keep").asInt()).isEqualTo(2);
    assertThat(view.at("/effective/min_snapshots_to_keep").asInt()).isEqualTo(2);
    assertThat(view.at("/sources/min_snapshots_to_keep").asText()).isEqualTo("table");
    assertThat(view.at("/effective/snapshot_max_age_seconds").asLong()).isZero();
    assertThat(view.at("/sources/snapshot_max_age_seconds").asText()).isEqualTo("org");
    assertThat(view.at("/sources/compaction_target_file_size_bytes").asText())
        .isEqualTo("namespace");
    assertThat(view.at("/effective/orphan_grace_seconds").isNull()).isTrue();
    assertThat(api.get(nsPolicy).body().at("/effective/min_snapshots_to_keep").asInt())
        .isEqualTo(3);

    ManagementApi.Reply ran = maintain("governed", Map.of());
    assertThat(ran.status()).as("%s", ran.body()).isEqualTo(200);
    assertThat(ran.body().at("/compaction/outcome").asText()).isEqualTo("done");
    assertThat(ran.body().at("/expiry/outcome").asText()).isEqualTo("done");
    assertThat(ran.body().at("/orphans").isNull()).as("not turned on").isTrue();
    table.refresh();
    assertThat(dataFiles(table)).isEqualTo(PARTITIONS);
    assertThat(table.snapshots()).hasSize(2);
    assertThat(rows(table)).hasSize(12);

    assertThat(api.delete(tablePolicy).status()).isEqualTo(204);
    assertThat(api.delete(tablePolicy).status()).isEqualTo(404);
    assertThat(api.get(tablePolicy).body().at("/sources/min_snapshots_to_keep").asText())
        .isEqualTo("org");
    assertThat(api.put(tablePolicy, Map.of("min_snapshots_to_keep", 0)).status())
        .isIn(400, 422);
    assertThat(api.put(tablePolicy, Map.of("compaction_target_file_size_bytes", 1)).status())
        .isIn(400, 422);
  }

  @Test
  void malformedRequestsAreRefusedAndReadersMayNotMaintain() {
    catalog.createTable(TableIdentifier.of(ns, "guarded"), SCHEMA, SPEC);
    assertThat(maintain("guarded", Map.of()).status()).isIn(400, 422);
    assertThat(maintain("guarded", Map.of("compact", "yes")).status()).isIn(400, 422);
    assertThat(maintain("guarded", Map.of("compact", Map.of("target_file_size_bytes", 1)))
        .status()).isIn(400, 422);
    assertThat(maintain("guarded", Map.of("expire_snapshots", Map.of("retain_last", 0)))
        .status()).isIn(400, 422);
    assertThat(maintain("guarded", Map.of("remove_orphans",
        Map.of("older_than_seconds", -1))).status()).isIn(400, 422);
    assertThat(maintain("missing", Map.of("rewrite_manifests", true)).status()).isEqualTo(404);
    ManagementApi stranger = new ManagementApi(floe.port(), floe.newOrg().token());
    assertThat(stranger.post("/orgs/" + org.warehouse() + "/iceberg/namespaces/kept/tables/"
        + "guarded/maintenance", Map.of("rewrite_manifests", true)).status()).isEqualTo(404);
  }

  /**
   * A merge-on-read v3 table: three appends per partition, then a deletion vector on one file of
   * each partition. Compaction applies the vectors, drops them in the same commit and keeps each
   * surviving row's {@code _row_id} and {@code _last_updated_sequence_number}, as Iceberg's own
   * reader sees them before (inherited from the files) and after (written in the new files).
   */
  @Test
  void compactionOfAV3TableAppliesItsDeletionVectorsAndKeepsEveryRowId() throws IOException {
    Table table = catalog.createTable(TableIdentifier.of(ns, "lineage"), SCHEMA, SPEC,
        Map.of(TableProperties.FORMAT_VERSION, "3"));
    for (long commit = 0; commit < 3; commit++) {
      List<Long> ids = new ArrayList<>();
      for (long i = 0; i < 4 * PARTITIONS; i++) {
        ids.add(commit * 100 + i);
      }
      append(table, ids);
    }
    table.refresh();
    Snapshot appended = table.currentSnapshot();
    OutputFileFactory dvFiles = OutputFileFactory.builderFor(table, 1, 1)
        .format(FileFormat.PUFFIN).build();
    BaseDVFileWriter dvs = new BaseDVFileWriter(dvFiles, path -> null);
    List<Long> deleted = new ArrayList<>();
    try (dvs; CloseableIterable<FileScanTask> tasks =
        table.newScan().useSnapshot(appended.snapshotId()).planFiles()) {
      for (FileScanTask task : tasks) {
        if (rows(table, task).get(0) >= 100 && rows(table, task).get(0) < 200) {
          // The middle commit's file of each partition loses its second row.
          dvs.delete(task.file().location(), 1, table.spec(), task.file().partition());
          deleted.add(rows(table, task).get(1));
        }
      }
    }
    RowDelta delta = table.newRowDelta();
    dvs.result().deleteFiles().forEach(delta::addDeletes);
    delta.commit();
    assertThat(deleted).hasSize(PARTITIONS);
    Map<Long, String> before = lineage(table);
    assertThat(before).hasSize(3 * 4 * PARTITIONS - PARTITIONS).doesNotContainKeys(
        deleted.toArray(Long[]::new));
    assertThat(before.values()).doesNotHaveDuplicates();

    ManagementApi.Reply done = maintain("lineage", Map.of(
        "compact", Map.of("target_file_size_bytes", 8 * 1024 * 1024, "min_input_files", 2)));

    assertThat(done.status()).as(done.body().toString()).isEqualTo(200);
    assertThat(done.body().at("/compaction/outcome").asText()).isEqualTo("done");
    assertThat(done.body().at("/compaction/input_files").asInt()).isEqualTo(3 * PARTITIONS);
    assertThat(done.body().at("/compaction/output_files").asInt()).isEqualTo(PARTITIONS);
    table.refresh();
    assertThat(table.currentSnapshot().summary())
        .containsEntry("total-delete-files", "0").containsEntry("total-data-files",
            Integer.toString(PARTITIONS));
    assertThat(lineage(table)).as("every row keeps its id and last update")
        .isEqualTo(before);
    try (CloseableIterable<FileScanTask> tasks =
        table.newScan().includeColumnStats().planFiles()) {
      for (FileScanTask task : tasks) {
        assertThat(task.deletes()).isEmpty();
        // The new file holds every row's id as a column of its own.
        assertThat(task.file().valueCounts()).containsEntry(MetadataColumns.ROW_ID.fieldId(),
            task.file().recordCount());
      }
    }
  }

  /** Each row's id, with its row id and last updated sequence number as Iceberg reads them. */
  private static Map<Long, String> lineage(Table table) {
    Map<Long, String> lineage = new java.util.TreeMap<>();
    read(IcebergGenerics.read(table).project(MetadataColumns.schemaWithRowLineage(
        table.schema())).build(), record -> lineage.put((Long) record.getField("id"),
            record.getField(MetadataColumns.ROW_ID.name()) + "@"
                + record.getField(MetadataColumns.LAST_UPDATED_SEQUENCE_NUMBER.name())));
    return lineage;
  }

  private ManagementApi.Reply maintain(String table, Map<String, Object> body) {
    return api.post("/orgs/" + org.warehouse() + "/iceberg/namespaces/kept/tables/" + table
        + "/maintenance", body);
  }

  /** Appends the rows {@code ids} as one Parquet file per partition, as an engine would. */
  static void append(Table table, List<Long> ids) {
    Map<Integer, List<Long>> byPart = ids.stream()
        .collect(Collectors.groupingBy(i -> (int) (i % PARTITIONS)));
    var append = table.newFastAppend();
    byPart.forEach((part, partIds) -> append.appendFile(writeFile(table, part, partIds)));
    append.commit();
  }

  private static DataFile writeFile(Table table, int part, List<Long> ids) {
    PartitionKey partitionKey = new PartitionKey(table.spec(), table.schema());
    Record row = GenericRecord.create(table.schema());
    row.setField("part", part);
    partitionKey.partition(row);
    String location = table.locationProvider().newDataLocation(table.spec(), partitionKey,
        UUID.randomUUID() + ".parquet");
    try {
      DataWriter<Record> writer = Parquet.writeData(table.io().newOutputFile(location))
          .schema(table.schema()).createWriterFunc(GenericParquetWriter::create)
          .withSpec(table.spec()).withPartition(partitionKey).overwrite().build();
      try (writer) {
        for (long id : ids) {
          Record record = GenericRecord.create(table.schema());
          record.setField("id", id);
          record.setField("part", part);
          record.setField("name", "row-" + id);
          writer.write(record);
        }
      }
      return writer.toDataFile();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static Path write(Path file) throws IOException {
    Files.createDirectories(file.getParent());
    return Files.writeString(file, "not referenced");
  }

  private static int dataFiles(Table table) {
    try (CloseableIterable<FileScanTask> tasks = table.newScan().planFiles()) {
      int count = 0;
      for (FileScanTask ignored : tasks) {
        count++;
      }
      return count;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static List<String> rows(Table table) {
    return read(IcebergGenerics.read(table).build());
  }

  private static List<Long> rows(Table table, FileScanTask task) {
    try (CloseableIterable<Record> records = Parquet.read(table.io().newInputFile(
        task.file().location())).project(table.schema()).createReaderFunc(fileSchema ->
        GenericParquetReaders.buildReader(table.schema(),
            fileSchema)).build()) {
      List<Long> ids = new ArrayList<>();
      records.forEach(record -> ids.add((Long) record.getField("id")));
      return ids;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** A full read's time in ms, after one read that warms the JVM and the caches. */
  private static long timedRead(Table table) {
    rows(table);
    long start = System.nanoTime();
    rows(table);
    return (System.nanoTime() - start) / 1_000_000;
  }

  private static List<String> read(CloseableIterable<Record> records) {
    return read(records, record -> record.getField("id") + "/" + record.getField("part") + "/"
        + record.getField("name"));
  }

  private static <T> List<T> read(CloseableIterable<Record> records, Function<Record, T> row) {
    try (records) {
      List<T> out = new ArrayList<>();
      records.forEach(record -> out.add(row.apply(record)));
      return out;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
