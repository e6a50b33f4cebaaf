package io.floe.bootstrap;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.function.UnaryOperator;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.DeleteFile;
import org.apache.iceberg.FileFormat;
import org.apache.iceberg.FileScanTask;
import org.apache.iceberg.PartitionKey;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Schema;
import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.data.GenericAppenderFactory;
import org.apache.iceberg.data.GenericRecord;
import org.apache.iceberg.data.IcebergGenerics;
import org.apache.iceberg.data.Record;
import org.apache.iceberg.deletes.PositionDelete;
import org.apache.iceberg.deletes.PositionDeleteWriter;
import org.apache.iceberg.encryption.EncryptedFiles;
import org.apache.iceberg.expressions.Expressions;
import org.apache.iceberg.io.CloseableIterable;
import org.apache.iceberg.io.DataWriter;
import org.apache.iceberg.rest.RESTCatalog;
import org.apache.iceberg.types.Types;
import org.junit.jupiter.api.Test;

/**
 * Server-side scan planning with Iceberg's own Java client: a catalog told to plan on the server
 * ({@code scan-planning-mode=server}) reads, through Floe's plans, exactly the rows a catalog
 * that plans itself reads, on a partitioned table with a position delete, for a filter, a
 * projection and an older snapshot; an incremental plan hands out what Iceberg's incremental
 * append scan plans; and a table's property makes its loads tell clients where to plan.
 */
@FloeServerTest
class ScanPlanningTest {
  private static final Schema SCHEMA = new Schema(
      Types.NestedField.required(1, "id", Types.LongType.get()),
      Types.NestedField.required(2, "region", Types.StringType.get()),
      Types.NestedField.optional(3, "note", Types.StringType.get()));
  private static final PartitionSpec SPEC =
      PartitionSpec.builderFor(SCHEMA).identity("region").build();

  @Test
  void theServerPlansTheRowsTheClientPlans(TestFloe floe) throws Exception {
    TestFloe.Org org = floe.newOrg();
    TableIdentifier id = TableIdentifier.of(Namespace.of("planned"), "readings");
    try (RESTCatalog client = floe.catalog(org, Map.of());
        RESTCatalog server = floe.catalog(org, Map.of("scan-planning-mode", "server"))) {
      client.createNamespace(id.namespace());
      Table table = client.createTable(id, SCHEMA, SPEC, Map.of("format-version", "2"));
      DataFile eu = write(table, "eu", 1, 2, 3);
      table.newAppend().appendFile(eu).appendFile(write(table, "us", 4, 5)).commit();
      long first = table.currentSnapshot().snapshotId();
      table.newAppend().appendFile(write(table, "eu", 6, 7)).commit();
      long second = table.currentSnapshot().snapshotId();
      table.newRowDelta().addDeletes(deleteRow(table, eu, 1)).commit();

      Table planned = server.loadTable(id);
      Table local = client.loadTable(id);
      assertThat(planned.newScan().getClass().getSimpleName()).isEqualTo("RESTTableScan");
      assertThat(local.newScan().getClass().getSimpleName()).isNotEqualTo("RESTTableScan");

      List<UnaryOperator<IcebergGenerics.ScanBuilder>> reads = List.of(
          scan -> scan,
          scan -> scan.where(Expressions.greaterThan("id", 3L)),
          scan -> scan.where(Expressions.equal("region", "eu")).select("id"),
          scan -> scan.useSnapshot(first),
          scan -> scan.useSnapshot(second).where(Expressions.lessThan("id", 7L)));
      for (UnaryOperator<IcebergGenerics.ScanBuilder> read : reads) {
        assertThat(rows(read.apply(IcebergGenerics.read(planned))))
            .isEqualTo(rows(read.apply(IcebergGenerics.read(local))))
            .isNotEmpty();
      }
      assertThat(rows(IcebergGenerics.read(planned))).doesNotContain("2/eu").contains("1/eu", "3/eu");

      IcebergHttp http = new IcebergHttp(floe, org);
      IcebergHttp.Reply incremental = http.post("/namespaces/planned/tables/readings/plan",
          "{\"start-snapshot-id\":" + second + ",\"end-snapshot-id\":" + second + "}");
      assertThat(incremental.status()).as("%s", incremental.body()).isEqualTo(200);
      Set<String> served = new HashSet<>();
      incremental.body().path("file-scan-tasks").forEach(task ->
          served.add(task.path("data-file").path("file-path").asText()));
      Set<String> expected = new HashSet<>();
      try (CloseableIterable<FileScanTask> tasks = local.newIncrementalAppendScan()
          .fromSnapshotInclusive(second).toSnapshot(second).planFiles()) {
        tasks.forEach(task -> expected.add(task.file().location()));
      }
      assertThat(served).isEqualTo(expected).hasSize(1);

      assertThat(http.post("/namespaces/planned/tables/readings/plan",
          "{\"snapshot-id\":1234}").status()).isEqualTo(404);
      assertThat(http.post("/namespaces/planned/tables/readings/plan",
          "{\"filter\":{\"type\":\"eq\",\"term\":\"colour\",\"value\":1}}").status())
          .isEqualTo(400);
    }
  }

  @Test
  void aTablePropertyMakesLoadsTellClientsToPlanOnTheServer(TestFloe floe) {
    TestFloe.Org org = floe.newOrg();
    IcebergHttp http = new IcebergHttp(floe, org);
    try (RESTCatalog client = floe.catalog(org, Map.of())) {
      client.createNamespace(Namespace.of("modes"));
      client.createTable(TableIdentifier.of("modes", "plain"), SCHEMA);
      client.createTable(TableIdentifier.of("modes", "served"), SCHEMA, SPEC,
          Map.of("scan-planning-mode", "server"));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    assertThat(http.get("/namespaces/modes/tables/plain").body().path("config")
        .has("scan-planning-mode")).isFalse();
    assertThat(http.get("/namespaces/modes/tables/served").body().path("config")
        .path("scan-planning-mode").asText()).isEqualTo("server");
  }

  private static List<String> rows(IcebergGenerics.ScanBuilder scan) throws IOException {
    List<String> rows = new ArrayList<>();
    try (CloseableIterable<Record> records = scan.build()) {
      for (Record record : records) {
        rows.add(String.valueOf(record.getField("id")) + (record.struct().field("region") == null
            ? "" : "/" + record.getField("region")));
      }
    }
    rows.sort(null);
    return rows;
  }

  private static DataFile write(Table table, String region, long... ids) throws IOException {
    GenericAppenderFactory factory = new GenericAppenderFactory(SCHEMA, table.spec());
    GenericRecord record = GenericRecord.create(SCHEMA);
    PartitionKey partition = new PartitionKey(table.spec(), SCHEMA);
    partition.partition(record.copy(Map.of("id", ids[0], "region", region)));
    String location = table.locationProvider().newDataLocation(table.spec(), partition,
        UUID.randomUUID() + ".parquet");
    DataWriter<Record> writer = factory.newDataWriter(EncryptedFiles.plainAsEncryptedOutput(
        table.io().newOutputFile(location)), FileFormat.PARQUET, partition);
    try (writer) {
      for (long id : ids) {
        writer.write(record.copy(Map.of("id", id, "region", region, "note", "n" + id)));
      }
    }
    return writer.toDataFile();
  }

  private static DeleteFile deleteRow(Table table, DataFile file, long position)
      throws IOException {
    GenericAppenderFactory factory = new GenericAppenderFactory(SCHEMA, table.spec());
    String location = table.locationProvider().newDataLocation(table.spec(), file.partition(),
        "deletes-" + UUID.randomUUID() + ".parquet");
    PositionDeleteWriter<Record> writer = factory.newPosDeleteWriter(
        EncryptedFiles.plainAsEncryptedOutput(table.io().newOutputFile(location)),
        FileFormat.PARQUET, file.partition());
    try (writer) {
      writer.write(PositionDelete.<Record>create().set(file.location(), position, null));
    }
    return writer.toDeleteFile();
  }
}
