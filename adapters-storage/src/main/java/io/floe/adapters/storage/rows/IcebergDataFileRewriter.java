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
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Schema;
import org.apache.iceberg.StructLike;
import org.apache.iceberg.Table;
import org.apache.iceberg.data.GenericFileWriterFactory;
import org.apache.iceberg.data.IdentityPartitionConverters;
import org.apache.iceberg.data.Record;
import org.apache.iceberg.data.parquet.GenericParquetReaders;
import org.apache.iceberg.io.CloseableIterable;
import org.apache.iceberg.io.OutputFileFactory;
import org.apache.iceberg.io.RollingDataWriter;
import org.apache.iceberg.parquet.Parquet;
import org.apache.iceberg.util.PartitionUtil;

/**
 * Rewrites data files with Iceberg's generic Parquet reader and writer: each input file is read
 * record by record in the table's current schema and written to a {@link RollingDataWriter},
 * which starts a new file at the target size. Only a Parquet row group of one input and the
 * open output are held in memory.
 */
public final class IcebergDataFileRewriter implements DataFileRewriter {

  @Override
  public List<DataFile> rewrite(Table table, List<FileScanTask> files, long targetFileSizeBytes) {
    if (files.isEmpty()) {
      return List.of();
    }
    Schema schema = table.schema();
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

  private static CloseableIterable<Record> read(Table table, FileScanTask task, Schema schema) {
    Map<Integer, ?> constants = PartitionUtil.constantsMap(task,
        IdentityPartitionConverters::convertConstant);
    return Parquet.read(table.io().newInputFile(task.file().location(),
            task.file().fileSizeInBytes()))
        .project(schema)
        .createReaderFunc(fileSchema -> GenericParquetReaders.buildReader(schema, fileSchema,
            constants))
        .build();
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
