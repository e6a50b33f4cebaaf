package io.floe.adapters.storage.rows;

import io.floe.application.port.out.TableRowReader;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.iceberg.BaseTable;
import org.apache.iceberg.DeleteFile;
import org.apache.iceberg.FileFormat;
import org.apache.iceberg.FileScanTask;
import org.apache.iceberg.Schema;
import org.apache.iceberg.StaticTableOperations;
import org.apache.iceberg.Table;
import org.apache.iceberg.TableMetadata;
import org.apache.iceberg.avro.Avro;
import org.apache.iceberg.data.GenericDeleteFilter;
import org.apache.iceberg.data.IdentityPartitionConverters;
import org.apache.iceberg.data.Record;
import org.apache.iceberg.data.avro.PlannedDataReader;
import org.apache.iceberg.data.parquet.GenericParquetReaders;
import org.apache.iceberg.io.CloseableIterable;
import org.apache.iceberg.io.FileIO;
import org.apache.iceberg.io.InputFile;
import org.apache.iceberg.parquet.Parquet;
import org.apache.iceberg.util.PartitionUtil;

/**
 * Rows of a table's current snapshot, read as Iceberg's generic readers read them: the scan's
 * data files one task at a time, Parquet or Avro, with the task's position and equality deletes
 * applied ({@link GenericDeleteFilter}) and identity partition values filled in. Reading stops as
 * soon as enough rows are in, and skips a task whose data or delete files exceed the size
 * allowed.
 */
public final class IcebergTableRows implements TableRowReader {

  @Override
  public Rows firstRows(TableMetadata metadata, FileIO io, List<String> columns, int limit,
      long maxFileBytes) {
    Table table = new BaseTable(new StaticTableOperations(metadata.metadataFileLocation(), io) {
      @Override
      public TableMetadata current() {
        return metadata;
      }
    }, "preview");
    Schema projection = table.schema().select(columns);
    List<List<Object>> rows = new ArrayList<>();
    boolean skipped = false;
    try (CloseableIterable<FileScanTask> tasks = table.newScan().select(columns).planFiles()) {
      for (FileScanTask task : tasks) {
        if (rows.size() >= limit) {
          break;
        }
        if (!readable(task, maxFileBytes)) {
          skipped = true;
          continue;
        }
        GenericDeleteFilter deletes = new GenericDeleteFilter(io, task, table.schema(),
            projection);
        try (CloseableIterable<Record> records = deletes.filter(open(io, task,
            deletes.requiredSchema()))) {
          for (Record record : records) {
            if (rows.size() >= limit) {
              break;
            }
            List<Object> row = new ArrayList<>(columns.size());
            for (String column : columns) {
              row.add(record.getField(column));
            }
            rows.add(java.util.Collections.unmodifiableList(row));
          }
        }
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return new Rows(rows, skipped);
  }

  private static boolean readable(FileScanTask task, long maxFileBytes) {
    FileFormat format = task.file().format();
    if ((format != FileFormat.PARQUET && format != FileFormat.AVRO)
        || task.file().fileSizeInBytes() > maxFileBytes) {
      return false;
    }
    for (DeleteFile delete : task.deletes()) {
      if (delete.fileSizeInBytes() > maxFileBytes) {
        return false;
      }
    }
    return true;
  }

  private static CloseableIterable<Record> open(FileIO io, FileScanTask task, Schema schema) {
    InputFile input = io.newInputFile(task.file().location(), task.file().fileSizeInBytes());
    Map<Integer, ?> constants = PartitionUtil.constantsMap(task,
        IdentityPartitionConverters::convertConstant);
    if (task.file().format() == FileFormat.PARQUET) {
      return Parquet.read(input).project(schema).split(task.start(), task.length())
          .filter(task.residual())
          .createReaderFunc(fileSchema -> GenericParquetReaders.buildReader(schema, fileSchema,
              constants))
          .build();
    }
    return Avro.read(input).project(schema).split(task.start(), task.length())
        .createResolvingReader(avroSchema -> PlannedDataReader.create(schema, constants))
        .build();
  }
}
