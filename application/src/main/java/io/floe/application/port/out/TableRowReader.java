package io.floe.application.port.out;

import java.util.List;
import org.apache.iceberg.TableMetadata;
import org.apache.iceberg.io.FileIO;

/**
 * Reads rows of a table's current snapshot with Iceberg's own readers (data files with their
 * deletes applied), through {@code io}.
 */
public interface TableRowReader {

  /**
   * At most {@code limit} rows of the columns named (top-level columns of the current schema),
   * each as the column values in that order. Reads only from data files of at most
   * {@code maxFileBytes}: the readers hold a row group of the columns read in memory.
   */
  Rows firstRows(TableMetadata metadata, FileIO io, List<String> columns, int limit,
      long maxFileBytes);

  /** The rows read (a value may be null), and whether a data file was too large to read. */
  record Rows(List<List<Object>> rows, boolean skippedLargeFiles) {
    public Rows {
      rows = List.copyOf(rows);
    }
  }
}
