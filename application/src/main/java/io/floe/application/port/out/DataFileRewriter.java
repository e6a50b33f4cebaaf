package io.floe.application.port.out;

import java.util.List;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.FileScanTask;
import org.apache.iceberg.Table;

/**
 * Writes the rows of some data files of a table into new data files, with Iceberg's own generic
 * readers and writers. The new files are written where the table writes data, and are not
 * committed: the caller commits them, or deletes them when it gives up.
 */
public interface DataFileRewriter {

  /**
   * The live rows of {@code files} (Parquet files of one partition of one spec, with no equality
   * deletes: their position deletes and deletion vectors are applied), written in the table's
   * current schema into new Parquet files of about
   * {@code targetFileSizeBytes} each, in the same spec and partition. Streams row by row: the
   * memory it needs does not grow with the number or size of the files. Rows of a table with
   * row lineage keep their row id and last updated sequence number.
   */
  List<DataFile> rewrite(Table table, List<FileScanTask> files, long targetFileSizeBytes);
}
