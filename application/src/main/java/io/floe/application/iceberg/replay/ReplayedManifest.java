package io.floe.application.iceberg.replay;

import java.nio.ByteBuffer;
import java.util.List;
import org.apache.iceberg.ManifestContent;
import org.apache.iceberg.ManifestFile;

/**
 * A manifest a client wrote for its snapshot, offered to a new manifest list as if it were being
 * committed for the first time: snapshot id, sequence numbers and first row id unassigned, so
 * the manifest list writer assigns the replayed snapshot's (its entries inherit them).
 */
record ReplayedManifest(ManifestFile written) implements ManifestFile {
  /** What {@code ManifestWriter.UNASSIGNED_SEQ} stands for (that constant is not public). */
  private static final long UNASSIGNED_SEQUENCE_NUMBER = -1L;

  @Override
  public String path() {
    return written.path();
  }

  @Override
  public long length() {
    return written.length();
  }

  @Override
  public int partitionSpecId() {
    return written.partitionSpecId();
  }

  @Override
  public ManifestContent content() {
    return written.content();
  }

  @Override
  public long sequenceNumber() {
    return UNASSIGNED_SEQUENCE_NUMBER;
  }

  @Override
  public long minSequenceNumber() {
    return UNASSIGNED_SEQUENCE_NUMBER;
  }

  @Override
  public Long snapshotId() {
    return null;
  }

  @Override
  public Integer addedFilesCount() {
    return written.addedFilesCount();
  }

  @Override
  public Long addedRowsCount() {
    return written.addedRowsCount();
  }

  @Override
  public Integer existingFilesCount() {
    return written.existingFilesCount();
  }

  @Override
  public Long existingRowsCount() {
    return written.existingRowsCount();
  }

  @Override
  public Integer deletedFilesCount() {
    return written.deletedFilesCount();
  }

  @Override
  public Long deletedRowsCount() {
    return written.deletedRowsCount();
  }

  @Override
  public List<PartitionFieldSummary> partitions() {
    return written.partitions();
  }

  @Override
  public ByteBuffer keyMetadata() {
    return written.keyMetadata();
  }

  @Override
  public Long firstRowId() {
    return null;
  }

  @Override
  public ManifestFile copy() {
    return new ReplayedManifest(written.copy());
  }
}
