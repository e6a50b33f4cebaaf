package io.floe.application.iceberg.replay;

import java.util.Optional;
import io.floe.application.iceberg.MetadataFiles;
import org.apache.iceberg.LocationProviders;
import org.apache.iceberg.TableMetadata;
import org.apache.iceberg.TableOperations;
import org.apache.iceberg.exceptions.CommitFailedException;
import org.apache.iceberg.io.FileIO;
import org.apache.iceberg.io.LocationProvider;

/**
 * Table operations over metadata held in memory, so that iceberg-core's own snapshot producers
 * ({@code FastAppend}, {@code BaseOverwriteFiles}) can build a change on a given version: their
 * commit is captured here instead of published, and the catalog publishes it its own way. Files
 * they write (manifests, manifest lists) go next to the table's metadata through {@code io}.
 */
final class StagedTableOperations implements TableOperations {
  private final TableMetadata base;
  private final FileIO io;
  private final long snapshotId;
  private TableMetadata staged;

  /**
   * @param snapshotId the id the new snapshot gets: the client's own (the caller makes sure the
   *     base has no snapshot of that id), so that the manifests the client wrote for its snapshot,
   *     whose entries name that id, stay consistent with the snapshot that lands
   */
  StagedTableOperations(TableMetadata base, FileIO io, long snapshotId) {
    this.base = base;
    this.io = io;
    this.snapshotId = snapshotId;
  }

  /** The metadata the producer committed, if it did. */
  Optional<TableMetadata> staged() {
    return Optional.ofNullable(staged);
  }

  @Override
  public TableMetadata current() {
    return staged != null ? staged : base;
  }

  @Override
  public TableMetadata refresh() {
    return current();
  }

  @Override
  public void commit(TableMetadata expected, TableMetadata metadata) {
    if (expected != current()) {
      throw new CommitFailedException("staged table changed while a change was built on it");
    }
    staged = metadata;
  }

  @Override
  public FileIO io() {
    return io;
  }

  @Override
  public String metadataFileLocation(String fileName) {
    return MetadataFiles.metadataDirectory(current()) + "/" + fileName;
  }

  @Override
  public LocationProvider locationProvider() {
    return LocationProviders.locationsFor(current().location(), current().properties());
  }

  @Override
  public long newSnapshotId() {
    return snapshotId;
  }
}
