package io.floe.application.service.catalog;

import io.floe.application.model.AuditedChange;
import io.floe.application.port.out.CommitEvents;
import io.floe.application.port.out.DatabaseUnavailableException;
import io.floe.application.port.out.MetadataPointers;
import io.floe.application.port.out.MetadataPointers.Key;
import io.floe.application.port.out.UnitOfWork;
import io.floe.application.security.OrgContext;
import io.floe.application.service.change.ChangePublisher;
import java.time.Clock;
import java.util.List;
import java.util.Optional;
import org.apache.iceberg.exceptions.CommitFailedException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Moves tables' and views' pointers to new metadata files: the only place that does, wherever the
 * pointers live (catalog rows, or a repo's branch: {@link MetadataPointers}). An attempt plans
 * every change against the current state (which writes the new metadata files) and then
 * compare-and-swaps every pointer at once, in one transaction with what the change leaves on
 * record. When another writer moved a pointer in between, the change is planned again on the new
 * state: the client's requirements decide whether it still applies.
 *
 * <p>The first attempts are optimistic and hold no lock while they read and write files. After
 * {@value #OPTIMISTIC_ATTEMPTS} lost races the next attempt is planned while holding the pointers'
 * locks, so under heavy contention a commit waits for its turn instead of failing: a change
 * without requirements never fails merely because other Floe writers commit too. Writers outside
 * Floe take no lock (Python icechunk on a repo's branch), so under the locks a change is planned
 * again after a lost race too, at most {@value #LOCKED_ATTEMPTS} times.
 */
public final class CatalogCommitter {
  private static final Logger LOG = LoggerFactory.getLogger(CatalogCommitter.class);
  static final int OPTIMISTIC_ATTEMPTS = 3;
  static final int LOCKED_ATTEMPTS = 5;

  /**
   * One pointer to move: from where the plan read it (none: a table a repo's branch declares with
   * this move) to the metadata file the plan wrote, and the change the audit log records for it.
   */
  public record Swap(Key key, Optional<String> expectedLocation, String newLocation,
      AuditedChange change) {
    public Swap(Key key, String expectedLocation, String newLocation, AuditedChange change) {
      this(key, Optional.of(expectedLocation), newLocation, change);
    }

    MetadataPointers.Move move() {
      return new MetadataPointers.Move(key, expectedLocation, newLocation);
    }
  }

  /** What one attempt planned: the swaps that publish it (none when nothing changes), and its result. */
  public record Plan<R>(List<Swap> swaps, R result) {
    public Plan {
      swaps = List.copyOf(swaps);
    }

    List<Key> keys() {
      return swaps.stream().map(Swap::key).distinct().toList();
    }
  }

  /**
   * Plans a change against the current state. It must resolve and authorize every object it
   * changes before it writes any file, and it may be called again after a lost race.
   */
  @FunctionalInterface
  public interface Planner<R> {
    Plan<R> plan();
  }

  private final MetadataPointers pointers;
  private final UnitOfWork unitOfWork;
  private final ChangePublisher publisher;
  private final Clock clock;
  private final CommitEvents events;

  public CatalogCommitter(MetadataPointers pointers, UnitOfWork unitOfWork,
      ChangePublisher publisher, Clock clock) {
    this(pointers, unitOfWork, publisher, clock, CommitEvents.NONE);
  }

  public CatalogCommitter(MetadataPointers pointers, UnitOfWork unitOfWork,
      ChangePublisher publisher, Clock clock, CommitEvents events) {
    this.pointers = pointers;
    this.unitOfWork = unitOfWork;
    this.publisher = publisher;
    this.clock = clock;
    this.events = events;
  }

  /**
   * Commits what {@code planner} plans; returns the result of the attempt that landed. A commit
   * cut off from the database before anything was committed (its connection lost, or none to be
   * had) is planned and tried once more, on a connection of its own again; a second such failure
   * is the caller's 503. (A connection lost while committing is resolved by the {@link UnitOfWork}:
   * it answers only once it knows whether the pointers moved.)
   */
  public <R> R commit(OrgContext context, String what, Planner<R> planner) {
    try {
      return commitOnce(context, what, planner);
    } catch (DatabaseUnavailableException e) {
      LOG.warn("commit of {}: the database could not be reached and nothing was committed; "
          + "trying once more", what);
      return commitOnce(context, what, planner);
    }
  }

  private <R> R commitOnce(OrgContext context, String what, Planner<R> planner) {
    int attempt = 1;
    try {
      Plan<R> plan = planner.plan();
      for (; attempt <= OPTIMISTIC_ATTEMPTS; attempt++) {
        if (trySwap(context, plan)) {
          LOG.info("commit of {}: committed after {} attempt(s)", what, attempt);
          return plan.result();
        }
        events.lostRace();
        LOG.debug("{} lost a race on attempt {}; planning it again", what, attempt);
        if (attempt < OPTIMISTIC_ATTEMPTS) {
          plan = planner.plan();
        }
      }
      R result = commitLocked(context, what, planner, plan.keys());
      LOG.info("commit of {}: committed after {} attempt(s), the last under locks", what,
          attempt);
      return result;
    } catch (CommitFailedException e) {
      events.refused();
      LOG.info("commit of {}: conflict after {} attempt(s): {}", what, attempt, e.getMessage());
      throw e;
    }
  }

  /** Plans and swaps while holding the pointers' locks: no Floe writer moves them meanwhile. */
  private <R> R commitLocked(OrgContext context, String what, Planner<R> planner,
      List<Key> keys) {
    LOG.debug("{} is contended; planning it under the pointers' locks", what);
    events.plannedUnderLocks();
    return unitOfWork.inTransaction(() -> {
      pointers.lockForCommit(keys);
      for (int attempt = 1; attempt <= LOCKED_ATTEMPTS; attempt++) {
        Plan<R> plan = planner.plan();
        if (!keys.containsAll(plan.keys())) {
          // Only a drop or a re-creation of an object between the two plans gets here.
          throw new CommitFailedException("Commit failed: %s changed while it was being "
              + "committed; retry", what);
        }
        if (trySwap(context, plan)) {
          return plan.result();
        }
        // Only a writer that takes no lock overtakes a locked plan: one outside Floe.
        events.lostRace();
      }
      throw new CommitFailedException("Commit failed: %s kept changing while it was being "
          + "committed (%d times, the last %d under locks writers outside Floe do not take); "
          + "retry", what, OPTIMISTIC_ATTEMPTS + LOCKED_ATTEMPTS, LOCKED_ATTEMPTS);
    });
  }

  /** True when every pointer moved; false (and nothing moved) when any had moved meanwhile. */
  private boolean trySwap(OrgContext context, Plan<?> plan) {
    try {
      List<AuditedChange> changes = plan.swaps().stream().map(Swap::change).toList();
      publisher.publish(context, changes, plan.result(), () -> {
        if (!plan.swaps().isEmpty() && !pointers.swap(
            plan.swaps().stream().map(Swap::move).toList(), clock.instant())) {
          throw new LostRace();
        }
      });
      return true;
    } catch (LostRace e) {
      return false;
    }
  }

  /** Thrown inside the transaction so that nothing of the attempt is recorded. */
  private static final class LostRace extends RuntimeException {
    LostRace() {
      super(null, null, false, false);
    }
  }
}
