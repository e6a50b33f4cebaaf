package io.floe.adapters.storage.rows;

import static org.assertj.core.api.Assertions.assertThat;

import io.floe.application.port.out.TableRowReader.Rows;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.iceberg.BaseTable;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.DeleteFile;
import org.apache.iceberg.FileFormat;
import org.apache.iceberg.Schema;
import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.data.GenericAppenderFactory;
import org.apache.iceberg.data.GenericRecord;
import org.apache.iceberg.data.Record;
import org.apache.iceberg.deletes.PositionDelete;
import org.apache.iceberg.deletes.PositionDeleteWriter;
import org.apache.iceberg.encryption.EncryptedFiles;
import org.apache.iceberg.encryption.EncryptedOutputFile;
import org.apache.iceberg.inmemory.InMemoryCatalog;
import org.apache.iceberg.io.DataWriter;
import org.apache.iceberg.types.Types;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** Rows of a real table, written as Parquet with a position delete, read back for a preview. */
class IcebergTableRowsTest {
  private static final Schema SCHEMA = new Schema(
      Types.NestedField.required(1, "id", Types.LongType.get()),
      Types.NestedField.optional(2, "name", Types.StringType.get()),
      Types.NestedField.optional(3, "score", Types.DoubleType.get()));

  private Table table;
  private DataFile data;

  @BeforeEach
  void write() throws IOException {
    InMemoryCatalog catalog = new InMemoryCatalog();
    catalog.initialize("preview", Map.of());
    catalog.createNamespace(Namespace.of("ns"));
    table = catalog.createTable(TableIdentifier.of("ns", "t"), SCHEMA, null,
        Map.of("format-version", "2"));
    GenericAppenderFactory factory = new GenericAppenderFactory(SCHEMA, table.spec(), null,
        null, null);
    EncryptedOutputFile out = EncryptedFiles.plainAsEncryptedOutput(
        table.io().newOutputFile(table.location() + "/data/part-0.parquet"));
    DataWriter<Record> writer = factory.newDataWriter(out, FileFormat.PARQUET, null);
    try (writer) {
      for (long id = 0; id < 5; id++) {
        GenericRecord record = GenericRecord.create(SCHEMA);
        record.setField("id", id);
        record.setField("name", id == 3 ? null : "n" + id);
        record.setField("score", id * 1.5);
        writer.write(record);
      }
    }
    data = writer.toDataFile();
    table.newAppend().appendFile(data).commit();

    EncryptedOutputFile deletes = EncryptedFiles.plainAsEncryptedOutput(
        table.io().newOutputFile(table.location() + "/data/deletes-0.parquet"));
    PositionDeleteWriter<Record> deleteWriter =
        factory.newPosDeleteWriter(deletes, FileFormat.PARQUET, null);
    try (deleteWriter) {
      PositionDelete<Record> delete = PositionDelete.create();
      deleteWriter.write(delete.set(data.location(), 1L, null));
    }
    DeleteFile deleteFile = deleteWriter.toDeleteFile();
    table.newRowDelta().addDeletes(deleteFile).commit();
  }

  @Test
  void rowsComeWithTheirDeletesAppliedInTheColumnsAsked() {
    Rows rows = new IcebergTableRows().firstRows(current(), table.io(), List.of("name", "id"),
        10, 64L * 1024 * 1024);
    assertThat(rows.skippedLargeFiles()).isFalse();
    List<List<Object>> expected = new ArrayList<>();
    expected.add(List.of("n0", 0L));
    expected.add(List.of("n2", 2L));
    expected.add(java.util.Arrays.asList(null, 3L));
    expected.add(List.of("n4", 4L));
    assertThat(rows.rows()).isEqualTo(expected);
  }

  @Test
  void readingStopsAtTheLimit() {
    assertThat(new IcebergTableRows().firstRows(current(), table.io(), List.of("id"), 2,
        64L * 1024 * 1024).rows()).containsExactly(List.of(0L), List.of(2L));
  }

  @Test
  void filesOverTheSizeAllowedAreNotRead() {
    Rows rows = new IcebergTableRows().firstRows(current(), table.io(), List.of("id"), 10,
        data.fileSizeInBytes() - 1);
    assertThat(rows.rows()).isEmpty();
    assertThat(rows.skippedLargeFiles()).isTrue();
  }

  private org.apache.iceberg.TableMetadata current() {
    return ((BaseTable) table).operations().current();
  }
}
