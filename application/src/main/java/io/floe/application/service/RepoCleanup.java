package io.floe.application.service;

import io.floe.application.port.out.BucketStorageProvider;
import io.floe.application.port.out.LifecycleProbe;
import io.floe.application.port.out.NameRegistry;
import io.floe.application.port.out.OrgStore;
import io.floe.application.port.out.PrefixClaimStore;
import io.floe.application.port.out.RepoLifecycleStore;
import io.floe.application.port.out.RepoLifecycleStore.Deleted;
import io.floe.application.port.out.UnitOfWork;
import io.floe.domain.BucketConfig;
import io.floe.domain.Repo;
import java.time.Clock;
import java.util.Optional;
import java.util.UUID;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The repos' part of the cleanup pass: removes deleted repos whose recovery period has passed, in
 * the namespaces' steps. (1) The name is released, if the repo still holds it, and the attempt
 * recorded; (2) the prefix is emptied, unless the delete asked to retain the data; (3) the claim
 * is released and the row removed. Each step is safe to repeat, so a pass that dies anywhere is
 * finished by the next one, and the claim guards the prefix until its files are gone.
 */
public final class RepoCleanup {
  /** What one pass over repos did. */
  public record Result(int purged, long objectsDeleted, int failures) {}

  private static final Logger LOG = LoggerFactory.getLogger(RepoCleanup.class);
  private static final int BATCH = 100;

  private final RepoLifecycleStore lifecycle;
  private final NameRegistry names;
  private final PrefixClaimStore claims;
  private final OrgStore orgs;
  private final BucketStorageProvider storage;
  private final UnitOfWork unitOfWork;
  private final Clock clock;
  private final LifecycleProbe probe;

  public RepoCleanup(RepoLifecycleStore lifecycle, NameRegistry names, PrefixClaimStore claims,
      OrgStore orgs, BucketStorageProvider storage, UnitOfWork unitOfWork, Clock clock,
      LifecycleProbe probe) {
    this.lifecycle = lifecycle;
    this.names = names;
    this.claims = claims;
    this.orgs = orgs;
    this.storage = storage;
    this.unitOfWork = unitOfWork;
    this.clock = clock;
    this.probe = probe;
  }

  /** Runs over the due repos of every org, or of one. */
  public Result run(Optional<UUID> orgId) {
    int purged = 0;
    int failures = 0;
    long deleted = 0;
    for (UUID id : lifecycle.dueForCleanup(orgId, clock.instant(), BATCH)) {
      try {
        Optional<Long> removed = clean(id);
        if (removed.isPresent()) {
          purged++;
          deleted += removed.get();
        }
      } catch (RuntimeException e) {
        failures++;
        LOG.warn("cleanup of deleted repo {} failed; the next pass retries it", id, e);
        recordFailure(id, e);
      }
    }
    return new Result(purged, deleted, failures);
  }

  /** The number of objects removed, or empty when another pass holds the repo. */
  private Optional<Long> clean(UUID id) {
    Optional<Deleted> started = unitOfWork.inTransaction(() ->
        lifecycle.lockForCleanup(id).map(this::start));
    if (started.isEmpty()) {
      return Optional.empty();
    }
    Repo repo = started.get().repo();
    probe.reached("repo-cleanup:started");
    BucketConfig bucket = orgs.bucket(repo.location().bucketId()).orElseThrow(() ->
        new IllegalStateException("bucket of repo " + repo.name() + " vanished"));
    long removed = started.get().retainData() ? 0
        : storage.open(bucket).deleteUnder(repo.location().path());
    probe.reached("repo-cleanup:emptied");
    return unitOfWork.inTransaction(() -> {
      if (lifecycle.lockForCleanup(id).isEmpty()) {
        return Optional.empty();
      }
      lifecycle.recordCleanupProgress(id, removed, Optional.empty(), clock.instant());
      claims.releaseAllOf(id);
      lifecycle.purge(id);
      LOG.info("purged deleted repo {} ({} objects removed from {})", repo.name(), removed,
          bucket.uriOf(repo.location().path()));
      return Optional.of(removed);
    });
  }

  /** The first step: from here on the name belongs to whoever takes it next. */
  private Deleted start(Deleted deleted) {
    Repo repo = deleted.repo();
    if (!deleted.nameReleased()) {
      // Repos deleted before this step was recorded freed their name at once without saying so
      // when the recovery period was zero: only the repo's own hold is released.
      names.releaseIfHeldBy(repo.orgId(), repo.name(), repo.id());
      lifecycle.markNameReleased(repo.id(), clock.instant());
    }
    lifecycle.recordCleanupAttempt(repo.id(), clock.instant());
    return deleted;
  }

  private void recordFailure(UUID id, RuntimeException error) {
    try {
      unitOfWork.inTransaction(() -> lifecycle.recordCleanupProgress(id, 0,
          Optional.of(String.valueOf(error.getMessage())), clock.instant()));
    } catch (RuntimeException e) {
      error.addSuppressed(e);
    }
  }
}
