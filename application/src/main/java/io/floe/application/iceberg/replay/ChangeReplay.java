package io.floe.application.iceberg.replay;

import java.util.Optional;
import org.apache.iceberg.SnapshotRef;
import org.apache.iceberg.TableMetadata;
import org.apache.iceberg.UpdateRequirement;
import org.apache.iceberg.exceptions.CommitFailedException;
import org.apache.iceberg.rest.requests.UpdateTableRequest;
import org.apache.iceberg.util.SnapshotUtil;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Server-side rebase of a commit whose requirements failed only because another writer moved the
 * branch since the client read it. The change must add one snapshot and move that branch to it;
 * every other requirement must still hold; the client's base must be an ancestor of the
 * branch's head. Then an append always replays ({@link AppendReplay}); a delete or overwrite
 * replays when the writers since the base added no rows its predicate may match
 * ({@link RowFilterReplay}), else it is a {@link ReplayConflictException}. Anything else keeps
 * the requirement's conflict. The result is the new metadata, not yet written or published: a
 * replay that then loses the race to publish leaves only unreferenced files behind.
 */
public final class ChangeReplay {
  private static final Logger LOG = LoggerFactory.getLogger(ChangeReplay.class);

  /**
   * The change rebased onto {@code current}, or the requirement's {@code conflict} when it cannot
   * be. {@code conflict} is what a requirement of the change raised against {@code current}.
   */
  public TableMetadata rebase(ReplayTarget target, TableMetadata current,
      UpdateTableRequest change, CommitFailedException conflict) {
    SnapshotChange snapshotChange = replayable(current, change).orElseThrow(() -> conflict);
    TableMetadata rebased;
    if (AppendReplay.isAppend(snapshotChange, target)) {
      rebased = AppendReplay.replay(snapshotChange, current, target);
    } else if (RowFilterReplay.isRowFilterChange(snapshotChange, target)) {
      rebased = RowFilterReplay.replay(snapshotChange, current, target);
    } else {
      throw conflict;
    }
    LOG.debug("replayed {} snapshot {} of {} onto snapshot {} of branch {}",
        snapshotChange.operation(), snapshotChange.snapshot().snapshotId(), target.table(),
        current.ref(snapshotChange.branch()).snapshotId(), snapshotChange.branch());
    return rebased;
  }

  /** The change, when its only failed requirement is that its branch moved on from its base. */
  private static Optional<SnapshotChange> replayable(TableMetadata current,
      UpdateTableRequest change) {
    Optional<SnapshotChange> parsed = SnapshotChange.of(change);
    if (parsed.isEmpty()) {
      return Optional.empty();
    }
    SnapshotChange snapshotChange = parsed.get();
    for (UpdateRequirement requirement : change.requirements()) {
      if (!snapshotChange.isBranchAssertion(requirement)) {
        try {
          requirement.validate(current);
        } catch (CommitFailedException e) {
          return Optional.empty();
        }
      }
    }
    SnapshotRef head = current.ref(snapshotChange.branch());
    boolean movedOn = head != null && head.isBranch()
        && current.snapshot(snapshotChange.snapshot().snapshotId()) == null
        && (snapshotChange.base() == null || SnapshotUtil.isAncestorOf(head.snapshotId(),
            snapshotChange.base(), current::snapshot));
    return movedOn ? parsed : Optional.empty();
  }
}
