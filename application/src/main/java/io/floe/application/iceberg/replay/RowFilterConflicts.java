package io.floe.application.iceberg.replay;

import org.apache.iceberg.SnapshotRef;
import org.apache.iceberg.TableMetadata;
import org.apache.iceberg.expressions.Expression;
import org.apache.iceberg.io.FileIO;

/**
 * The rule that decides whether a delete or overwrite built on an older version of a table may be
 * rebuilt on the current one, for writers that rebuild their own changes (an embedded transaction
 * re-runs its intent with iceberg-core instead of sending manifests): it may when no snapshot the
 * branch gained since the base added rows its predicate may match. The same check
 * {@link ChangeReplay} applies to a REST client's delete or overwrite.
 */
public final class RowFilterConflicts {
  private RowFilterConflicts() {}

  /**
   * Throws {@link ReplayConflictException} naming the table, the predicate, the base and the
   * first snapshot since it on {@code branch} that may have added matching rows.
   *
   * @param base the branch's snapshot the change was first built on; null when it had none
   * @param io reads the manifests of {@code current}, which the caller trusts as its own table's
   */
  public static void requireNoMatchingRowsAdded(String table, TableMetadata current, String branch,
      Long base, Expression predicate, FileIO io) {
    SnapshotRef head = current.ref(branch);
    if (head == null) {
      return;
    }
    ConflictFilter filter = new ConflictFilter(predicate, predicate.toString());
    ReplayTarget target = new ReplayTarget(table, io, (what, location) -> { });
    RowFilterReplay.firstSnapshotAddingMatchingRows(current, head.snapshotId(), base, filter,
        target).ifPresent(conflicting -> {
          throw new ReplayConflictException(table, filter.describe(), base, conflicting,
              "it added rows that the change's predicate may match");
        });
  }
}
