package io.floe.application.service.catalog;

import io.floe.application.model.AuditedChange;
import io.floe.application.port.out.CommitEvents;
import io.floe.application.port.out.DatabaseUnavailableException;
import io.floe.application.port.out.MetadataPointers;
import io.floe.application.port.out.UnitOfWork;
import io.floe.application.security.OrgContext;
import io.floe.application.service.change.ChangePublisher;
import java.time.Clock;
import java.util.List;
import java.util.UUID;
import org.apache.iceberg.exceptions.CommitFailedException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Moves tables' and views' pointers to new metadata files: the only place that does. An attempt
 * plans every change against the current state (which writes the new metadata files) and then
 * compare-and-swaps every pointer in one transaction, together with what the change leaves on
 * record. When another writer moved a pointer in between, the change is planned again on the new
 * state: the client's requirements decide whether it still applies.
 *
 * <p>The first attempts are optimistic and hold no lock while they read and write files. After
 * {@value #OPTIMISTIC_ATTEMPTS} lost races the next attempt is planned while holding the objects'
 * row locks, so under heavy contention a commit waits for its turn instead of failing: a change
 * without requirements never fails merely because others commit too.
 */
public final class CatalogCommitter {
  private static final Logger LOG = LoggerFactory.getLogger(CatalogCommitter.class);
  static final int OPTIMISTIC_ATTEMPTS = 3;

  /**
   * One pointer to move: from where the plan read it to the metadata file the plan wrote, and the
   * change the audit log records for it.
   */
  public record Swap(UUID objectId, String expectedLocation, String newLocation,
      AuditedChange change) {}

  /** What one attempt planned: the swaps that publish it (none when nothing changes), and its result. */
  public record Plan<R>(List<Swap> swaps, R result) {
    public Plan {
      swaps = List.copyOf(swaps);
    }

    List<UUID> objectIds() {
      return swaps.stream().map(Swap::objectId).sorted().toList();
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
      R result = commitLocked(context, what, planner, plan.objectIds());
      LOG.info("commit of {}: committed after {} attempt(s), the last under locks", what,
          attempt);
      return result;
    } catch (CommitFailedException e) {
      events.refused();
      LOG.info("commit of {}: conflict after {} attempt(s): {}", what, attempt, e.getMessage());
      throw e;
    }
  }

  /** Plans and swaps while holding the objects' row locks: nobody can move them meanwhile. */
  private <R> R commitLocked(OrgContext context, String what, Planner<R> planner,
      List<UUID> objectIds) {
    LOG.debug("{} is contended; planning it under the objects' locks", what);
    events.plannedUnderLocks();
    return unitOfWork.inTransaction(() -> {
      pointers.lockForCommit(objectIds);
      Plan<R> plan = planner.plan();
      if (!objectIds.containsAll(plan.objectIds()) || !trySwap(context, plan)) {
        // Only a drop or a re-creation of an object between the two plans gets here.
        throw new CommitFailedException("Commit failed: %s changed while it was being "
            + "committed; retry", what);
      }
      return plan.result();
    });
  }

  /** True when every pointer moved; false (and nothing moved) when any had moved meanwhile. */
  private boolean trySwap(OrgContext context, Plan<?> plan) {
    try {
      List<AuditedChange> changes = plan.swaps().stream().map(Swap::change).toList();
      publisher.publish(context, changes, plan.result(), () -> {
        for (Swap swap : plan.swaps()) {
          if (!pointers.swap(swap.objectId(), swap.expectedLocation(), swap.newLocation(),
              clock.instant())) {
            throw new LostRace();
          }
        }
      });
      return true;
    } catch (LostRace e) {
      return false;
    }
  }

  /** Thrown inside the transaction to roll every swap of an attempt back. */
  private static final class LostRace extends RuntimeException {
    LostRace() {
      super(null, null, false, false);
    }
  }
}
