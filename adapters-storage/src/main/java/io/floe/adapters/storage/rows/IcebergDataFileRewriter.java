package io.floe.adapters.storage.rows;

import io.floe.application.port.out.DataFileRewriter;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.FileFormat;
import org.apache.iceberg.FileScanTask;
import org.apache.iceberg.MetadataColumns;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Schema;
import org.apache.iceberg.StructLike;
import org.apache.iceberg.Table;
import org.apache.iceberg.TableUtil;
import org.apache.iceberg.data.GenericDeleteFilter;
import org.apache.iceberg.data.GenericFileWriterFactory;
import org.apache.iceberg.data.GenericRecord;
import org.apache.iceberg.data.IdentityPartitionConverters;
import org.apache.iceberg.data.Record;
import org.apache.iceberg.data.parquet.GenericParquetReaders;
import org.apache.iceberg.io.CloseableIterable;
import org.apache.iceberg.io.OutputFileFactory;
import org.apache.iceberg.io.RollingDataWriter;
import org.apache.iceberg.parquet.Parquet;
import org.apache.iceberg.types.Types;
import org.apache.iceberg.util.PartitionUtil;

/**
 * Rewrites data files with Iceberg's generic Parquet reader and writer: each input file is read
 * record by record in the table's current schema, without the rows its position deletes and
 * deletion vectors delete ({@link GenericDeleteFilter}), and written to a
 * {@link RollingDataWriter}, which starts a new file at the target size. Only a Parquet row group
 * of one input, the positions its deletes name and the open output are held in memory.
 *
 * <p>Rows of a table with row lineage (format version 3) keep their identity: they are read with
 * {@code _row_id} and {@code _last_updated_sequence_number}, which the reader takes from the file
 * where it holds them and otherwise inherits from the file's first row id and sequence number, and
 * the new files hold both as columns of their own (the metadata columns' field ids). A reader of a
 * new file takes those values as they are instead of assigning the rewrite's row ids, as the spec
 * requires of a rewrite.
 */
public final class IcebergDataFileRewriter implements DataFileRewriter {
  /** The first format version whose rows carry a row id (iceberg-core keeps its own private). */
  private static final int MIN_FORMAT_VERSION_ROW_LINEAGE = 3;

  @Override
  public List<DataFile> rewrite(Table table, List<FileScanTask> files, long targetFileSizeBytes) {
    if (files.isEmpty()) {
      return List.of();
    }
    Schema schema = TableUtil.formatVersion(table) >= MIN_FORMAT_VERSION_ROW_LINEAGE
        ? MetadataColumns.schemaWithRowLineage(table.schema()) : table.schema();
    DataFile first = files.get(0).file();
    PartitionSpec spec = table.specs().get(first.specId());
    StructLike partition = first.partition();
    OutputFileFactory outputs = OutputFileFactory.builderFor(table, 0, 0)
        .operationId("compaction-" + UUID.randomUUID()).format(FileFormat.PARQUET).build();
    GenericFileWriterFactory writers = new GenericFileWriterFactory.Builder(table)
        .dataFileFormat(FileFormat.PARQUET).dataSchema(schema).build();
    RollingDataWriter<Record> writer = new RollingDataWriter<>(writers, outputs, table.io(),
        targetFileSizeBytes, spec, partition);
    boolean closed = false;
    try {
      for (FileScanTask task : files) {
        try (CloseableIterable<Record> records = read(table, task, schema)) {
          for (Record record : records) {
            writer.write(record);
          }
        }
      }
      writer.close();
      closed = true;
      return new ArrayList<>(writer.result().dataFiles());
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    } finally {
      if (!closed) {
        abort(table, writer);
      }
    }
  }

  /**
   * The live rows of one task in {@code schema}: what its deletes (position deletes, deletion
   * vectors) delete is left out. The filter may need columns beyond {@code schema} (the row
   * position); those rows are copied into records of {@code schema}, which is what is written.
   */
  private static CloseableIterable<Record> read(Table table, FileScanTask task, Schema schema) {
    GenericDeleteFilter deletes =
        new GenericDeleteFilter(table.io(), task, table.schema(), schema);
    Schema fileProjection = deletes.requiredSchema();
    Map<Integer, ?> constants = PartitionUtil.constantsMap(task,
        IdentityPartitionConverters::convertConstant);
    CloseableIterable<Record> live = deletes.filter(Parquet.read(table.io().newInputFile(
            task.file().location(), task.file().fileSizeInBytes()))
        .project(fileProjection)
        .createReaderFunc(fileSchema -> GenericParquetReaders.buildReader(fileProjection,
            fileSchema, constants))
        .build());
    if (fileProjection.sameSchema(schema)) {
      return live;
    }
    List<String> names = schema.columns().stream().map(Types.NestedField::name).toList();
    return CloseableIterable.transform(live, record -> {
      Record copy = GenericRecord.create(schema);
      for (int i = 0; i < names.size(); i++) {
        copy.set(i, record.getField(names.get(i)));
      }
      return copy;
    });
  }

  /** Closes the writer of a failed rewrite and deletes what it wrote. */
  private static void abort(Table table, RollingDataWriter<Record> writer) {
    try {
      writer.close();
      writer.result().dataFiles().forEach(file -> table.io().deleteFile(file.location()));
    } catch (IOException | RuntimeException e) {
      // The rewrite has failed already; its files are unreferenced, and orphan removal takes
      // them after the grace period.
    }
  }
}
