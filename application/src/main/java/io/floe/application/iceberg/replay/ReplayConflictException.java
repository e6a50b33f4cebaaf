package io.floe.application.iceberg.replay;

import org.apache.iceberg.exceptions.CommitFailedException;

/**
 * A change the server would have replayed onto the branch's new head, but which conflicts with
 * what another writer committed since the client's base: a delete or overwrite whose predicate
 * may match rows the other writer added, or that removes files the other writer changed. An
 * HTTP 409 like every commit conflict; the client must re-plan on the new head.
 */
public final class ReplayConflictException extends CommitFailedException {
  private final String table;
  private final String predicate;
  private final long conflictingSnapshotId;

  ReplayConflictException(String table, String predicate, Long baseSnapshotId,
      long conflictingSnapshotId, String reason) {
    super("%s", String.format("Commit to table %s conflicts with snapshot %d, committed since the "
            + "snapshot this change was built on (%s): %s (predicate: %s). Reload the table and "
            + "retry", table, conflictingSnapshotId,
        baseSnapshotId == null ? "none" : baseSnapshotId, reason, predicate));
    this.table = table;
    this.predicate = predicate;
    this.conflictingSnapshotId = conflictingSnapshotId;
  }

  public String table() {
    return table;
  }

  public String predicate() {
    return predicate;
  }

  /** The snapshot, committed since the base, that the change conflicts with. */
  public long conflictingSnapshotId() {
    return conflictingSnapshotId;
  }
}
