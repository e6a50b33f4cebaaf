package io.floe.application.service.lifecycle;

import io.floe.application.port.out.LifecycleProbe;
import io.floe.application.port.out.SoftDeleteStore;
import io.floe.application.port.out.SoftDeleteStore.Deleted;
import io.floe.application.port.out.UnitOfWork;
import java.time.Clock;
import java.util.Optional;
import java.util.UUID;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Removes soft-deleted owners of one kind whose recovery period has passed, in three recorded
 * steps: (1) the name is released and the attempt counted; (2) the files are deleted, unless the
 * delete asked to retain them; (3) in one transaction, the claims are released and the row is
 * removed, unless something still needs the prefix. Each step is safe to repeat, so a pass that
 * dies anywhere is finished by the next one, and the claim guards the prefix until its files are
 * gone. The steps particular to a kind come from its {@link CleanupSteps}.
 *
 * @param <T> the owner
 */
public final class SoftDeleteCleanup<T> {
  /** What one pass over one kind did. */
  public record Tally(int purged, int kept, long objectsDeleted, int failures) {
    public static final Tally NONE = new Tally(0, 0, 0, 0);

    Tally plus(Tally other) {
      return new Tally(purged + other.purged, kept + other.kept,
          objectsDeleted + other.objectsDeleted, failures + other.failures);
    }
  }

  private static final Logger LOG = LoggerFactory.getLogger(SoftDeleteCleanup.class);
  private static final int BATCH = 100;

  private final SoftDeleteStore<T> store;
  private final CleanupSteps<T> steps;
  private final UnitOfWork unitOfWork;
  private final Clock clock;
  private final LifecycleProbe probe;

  public SoftDeleteCleanup(SoftDeleteStore<T> store, CleanupSteps<T> steps,
      UnitOfWork unitOfWork, Clock clock, LifecycleProbe probe) {
    this.store = store;
    this.steps = steps;
    this.unitOfWork = unitOfWork;
    this.clock = clock;
    this.probe = probe;
  }

  /** Runs over the due owners of every org, or of one. */
  public Tally run(Optional<UUID> orgId) {
    Tally tally = Tally.NONE;
    for (UUID id : store.dueForCleanup(orgId, clock.instant(), BATCH)) {
      try {
        tally = tally.plus(clean(id));
      } catch (RuntimeException e) {
        LOG.warn("cleanup of deleted {} {} failed; the next pass retries it", steps.kind(), id, e);
        recordFailure(id, e);
        tally = tally.plus(new Tally(0, 0, 0, 1));
      }
    }
    return tally;
  }

  private Tally clean(UUID id) {
    Optional<Deleted<T>> started = unitOfWork.inTransaction(() ->
        store.lockForCleanup(id).map(this::start));
    if (started.isEmpty()) {
      return Tally.NONE; // another pass holds it, or it is gone
    }
    T owner = started.get().owner();
    probe.reached(steps.kind() + "-cleanup:started");
    long removed = started.get().retainData() ? 0 : steps.empty(owner);
    probe.reached(steps.kind() + "-cleanup:emptied");
    return unitOfWork.inTransaction(() -> {
      if (store.lockForCleanup(id).isEmpty()) {
        return new Tally(0, 0, removed, 0);
      }
      Optional<String> keep = steps.reasonToKeep(owner);
      store.recordCleanupProgress(id, removed, keep.map(reason -> "kept: " + reason),
          clock.instant());
      if (keep.isPresent()) {
        return new Tally(0, 1, removed, 0);
      }
      steps.releaseClaims(owner);
      store.purge(id);
      LOG.info("purged deleted {} {} ({} objects removed)", steps.kind(), steps.describe(owner),
          removed);
      return new Tally(1, 0, removed, 0);
    });
  }

  /** The first step: from here on the name belongs to whoever takes it next. */
  private Deleted<T> start(Deleted<T> deleted) {
    if (!deleted.nameReleased()) {
      steps.releaseName(deleted.owner());
      store.markNameReleased(steps.id(deleted.owner()), clock.instant());
    }
    store.recordCleanupAttempt(steps.id(deleted.owner()), clock.instant());
    return deleted;
  }

  private void recordFailure(UUID id, RuntimeException error) {
    try {
      unitOfWork.inTransaction(() -> store.recordCleanupProgress(id, 0,
          Optional.of(String.valueOf(error.getMessage())), clock.instant()));
    } catch (RuntimeException e) {
      error.addSuppressed(e);
    }
  }
}
