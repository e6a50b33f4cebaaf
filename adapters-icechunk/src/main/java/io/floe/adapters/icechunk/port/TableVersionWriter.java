package io.floe.adapters.icechunk.port;

import io.floe.application.iceberg.MetadataFiles;
import io.floe.application.iceberg.replay.StagedTableOperations;
import java.util.List;
import java.util.Optional;
import org.apache.iceberg.BaseTable;
import org.apache.iceberg.SnapshotIdGeneratorUtil;
import org.apache.iceberg.TableMetadata;
import org.apache.iceberg.TableMetadataParser;
import org.apache.iceberg.io.FileIO;
import org.apache.iceberg.metrics.MetricsReporter;


/**
 * Builds a table's next version from a base version and intents with iceberg-core's own snapshot
 * producers over {@link StagedTableOperations} (their commit is captured, no pointer moves), then
 * writes its metadata.json. Publishing that file is the Icechunk commit's job: until then it is
 * an unreferenced file.
 */
final class TableVersionWriter {
  private static final MetricsReporter NO_REPORTS = report -> { };

  private final FileIO io;
  private final MetadataFiles metadataFiles;

  TableVersionWriter(FileIO io) {
    this.io = io;
    this.metadataFiles = new MetadataFiles(bucket -> io);
  }

  TableMetadata read(String metadataLocation) {
    return TableMetadataParser.read(io, metadataLocation);
  }

  FileIO io() {
    return io;
  }

  /**
   * Writes {@code base} with {@code changes} applied as the version after {@code previous} (empty
   * for a new table); returns the new metadata.json's location.
   */
  String write(String table, TableMetadata base, Optional<String> previous,
      List<TableChange> changes) {
    TableMetadata current = base;
    for (TableChange change : changes) {
      StagedTableOperations ops = new StagedTableOperations(current, io,
          SnapshotIdGeneratorUtil.generateSnapshotID());
      change.applyTo(new BaseTable(ops, table, NO_REPORTS));
      current = ops.staged().orElseThrow(() ->
          new IllegalStateException("the change to table '" + table + "' committed nothing"));
    }
    TableMetadata placed = metadataFiles.placeTable(current, previous);
    TableMetadataParser.write(placed, io.newOutputFile(placed.metadataFileLocation()));
    return placed.metadataFileLocation();
  }
}
