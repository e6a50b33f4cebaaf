package io.floe.application.service.repo.tables;

import io.floe.application.model.AuditedChange;
import io.floe.application.port.out.RepoCommitLocks;
import io.floe.application.port.out.RepoTablePointers;
import io.floe.application.port.out.UnitOfWork;
import io.floe.application.security.OrgContext;
import io.floe.application.service.change.ChangePublisher;
import java.util.List;
import org.apache.iceberg.exceptions.CommitFailedException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Moves repo tables' pointers: plans a change on the branch's head (which writes its metadata
 * files) and publishes it as one Icechunk commit that compare-and-swaps each pointer it moves,
 * together with what the change leaves on record. When another writer moved one of those tables
 * meanwhile, the change is planned again on the new head (where a lost append is replayed).
 *
 * <p>Like the catalog's committer, the first attempts hold no lock; after
 * {@value #OPTIMISTIC_ATTEMPTS} lost races Floe's writers take turns on the branch (a lock every
 * replica honours), so only writers outside Floe can still win races, at most
 * {@value #LOCKED_ATTEMPTS} times in a row before the change fails with a 409.
 */
public final class RepoTableCommitter {
  private static final Logger LOG = LoggerFactory.getLogger(RepoTableCommitter.class);
  static final int OPTIMISTIC_ATTEMPTS = 3;
  static final int LOCKED_ATTEMPTS = 5;

  /** What one attempt planned: the Icechunk commit that publishes it, and its result. */
  /** What to commit, the answer, and what the audit log records of it. */
  public record Plan<R>(RepoTablePointers.Commit commit, R result, List<AuditedChange> changes) {}

  /** Plans a change on the branch's current head; may be called again after a lost race. */
  @FunctionalInterface
  public interface Planner<R> {
    Plan<R> plan();
  }

  private final RepoTablePointers pointers;
  private final RepoCommitLocks locks;
  private final UnitOfWork unitOfWork;
  private final ChangePublisher publisher;

  public RepoTableCommitter(RepoTablePointers pointers, RepoCommitLocks locks,
      UnitOfWork unitOfWork, ChangePublisher publisher) {
    this.pointers = pointers;
    this.locks = locks;
    this.unitOfWork = unitOfWork;
    this.publisher = publisher;
  }

  public <R> R commit(OrgContext context, RepoNamespace namespace, String what,
      Planner<R> planner) {
    for (int attempt = 1; attempt <= OPTIMISTIC_ATTEMPTS; attempt++) {
      Plan<R> plan = planner.plan();
      if (tryPublish(context, namespace, plan)) {
        return plan.result();
      }
      LOG.debug("{} lost a race on attempt {}; planning it again", what, attempt);
    }
    String branch = namespace.requireBranch();
    return unitOfWork.inTransaction(() -> {
      locks.lockBranch(namespace.repo().id(), branch);
      for (int attempt = 1; attempt <= LOCKED_ATTEMPTS; attempt++) {
        Plan<R> plan = planner.plan();
        if (tryPublish(context, namespace, plan)) {
          return plan.result();
        }
      }
      throw new CommitFailedException("Commit failed: %s kept changing on branch %s of repo %s "
          + "while this commit was planned (%d times); retry", what, branch,
          namespace.repo().name(), OPTIMISTIC_ATTEMPTS + LOCKED_ATTEMPTS);
    });
  }

  /** True when the commit landed (or had nothing to move); false when a table moved first. */
  private boolean tryPublish(OrgContext context, RepoNamespace namespace, Plan<?> plan) {
    RepoTablePointers.Commit commit = plan.commit();
    try {
      publisher.publish(context, plan.changes(), plan.result(), () -> {
        if (!commit.moves().isEmpty() || !commit.declarations().isEmpty()) {
          pointers.commit(namespace.bucket(), namespace.repo().location().path(), commit)
              .orElseThrow(LostRace::new);
        }
      });
      return true;
    } catch (LostRace e) {
      return false;
    }
  }

  /** Thrown inside the publication's transaction so that nothing of the attempt is recorded. */
  private static final class LostRace extends RuntimeException {
    LostRace() {
      super(null, null, false, false);
    }
  }
}
