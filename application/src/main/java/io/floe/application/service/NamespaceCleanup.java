package io.floe.application.service;

import io.floe.application.port.in.RunCleanupUseCase;
import io.floe.application.port.out.BucketStorage;
import io.floe.application.port.out.BucketStorageProvider;
import io.floe.application.port.out.DroppedTableClaimStore;
import io.floe.application.port.out.LifecycleProbe;
import io.floe.application.port.out.NameRegistry;
import io.floe.application.port.out.NamespaceLifecycleStore;
import io.floe.application.port.out.NamespaceLifecycleStore.Deleted;
import io.floe.application.port.out.NamespaceStore;
import io.floe.application.port.out.OrgStore;
import io.floe.application.port.out.PrefixClaimStore;
import io.floe.application.port.out.UnitOfWork;
import io.floe.application.security.AccessPolicy;
import io.floe.application.security.OrgContext;
import io.floe.domain.BucketConfig;
import io.floe.domain.Namespace;
import io.floe.domain.StorageLocation;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The cleanup pass: finishes unfinished creations, then removes deleted namespaces whose recovery
 * period has passed. For each: (1) the name is released and the attempt recorded; (2) the prefix
 * is emptied, except the files of any table that still lives in the catalog (one renamed into
 * another namespace keeps its files here), and so are the own prefixes of tables dropped from it;
 * (3) the claims are released and the row removed. Each
 * step is safe to repeat, so a pass that dies anywhere is finished by the next one.
 */
public final class NamespaceCleanup implements RunCleanupUseCase {

  private static final Logger LOG = LoggerFactory.getLogger(NamespaceCleanup.class);
  private static final int BATCH = 100;
  /** Creations younger than this may still be running, on this server or another. */
  public static final Duration CREATION_GRACE = Duration.ofMinutes(10);

  private final NamespaceLifecycleStore lifecycle;
  private final NamespaceStore namespaces;
  private final NameRegistry names;
  private final PrefixClaimStore claims;
  private final OrgStore orgs;
  private final BucketStorageProvider storage;
  private final CreationRepair repair;
  private final UnitOfWork unitOfWork;
  private final Clock clock;
  private final LifecycleProbe probe;
  private final AccessPolicy policy;
  private final DroppedTablePrefixes droppedTables;

  public NamespaceCleanup(NamespaceLifecycleStore lifecycle, NamespaceStore namespaces,
      NameRegistry names, PrefixClaimStore claims, OrgStore orgs, BucketStorageProvider storage,
      CreationRepair repair, UnitOfWork unitOfWork, Clock clock, LifecycleProbe probe,
      AccessPolicy policy, DroppedTableClaimStore droppedTableClaims) {
    this.lifecycle = lifecycle;
    this.namespaces = namespaces;
    this.names = names;
    this.claims = claims;
    this.orgs = orgs;
    this.storage = storage;
    this.repair = repair;
    this.unitOfWork = unitOfWork;
    this.clock = clock;
    this.probe = probe;
    this.policy = policy;
    this.droppedTables = new DroppedTablePrefixes(droppedTableClaims, lifecycle, claims, orgs,
        storage);
  }

  @Override
  public CleanupReport runFor(OrgContext context) {
    policy.requireAdmin(context, "run the cleanup");
    return run(Optional.of(context.org().id()));
  }

  /** Runs a pass over every org, or over one. */
  public CleanupReport run(Optional<UUID> orgId) {
    int undone = repair.repairStartedBefore(clock.instant().minus(CREATION_GRACE));
    int purged = 0;
    int kept = 0;
    int failures = 0;
    long deleted = 0;
    for (UUID id : lifecycle.dueForCleanup(orgId, clock.instant(), BATCH)) {
      try {
        Outcome outcome = clean(id);
        deleted += outcome.objectsDeleted();
        if (outcome.purged()) {
          purged++;
        } else if (outcome.attempted()) {
          kept++;
        }
      } catch (RuntimeException e) {
        failures++;
        LOG.warn("cleanup of deleted namespace {} failed; the next pass retries it", id, e);
        recordFailure(id, e);
      }
    }
    return new CleanupReport(undone, purged, deleted, kept, failures);
  }

  private record Outcome(boolean attempted, boolean purged, long objectsDeleted) {}

  private Outcome clean(UUID id) {
    Optional<Deleted> started = unitOfWork.inTransaction(() ->
        lifecycle.lockForCleanup(id).map(this::start));
    if (started.isEmpty()) {
      return new Outcome(false, false, 0);
    }
    Deleted deleted = started.get();
    Namespace namespace = deleted.namespace();
    probe.reached("namespace-cleanup:started");
    BucketConfig bucket = orgs.bucket(namespace.bucketId()).orElseThrow(() ->
        new IllegalStateException("bucket of namespace " + namespace.name() + " vanished"));
    StorageLocation prefix = new StorageLocation(bucket.id(), namespace.prefix());
    long removed = deleted.retainData() ? 0
        : empty(bucket, prefix) + droppedTables.empty(namespace.id());
    probe.reached("namespace-cleanup:emptied");
    return unitOfWork.inTransaction(() -> {
      if (lifecycle.lockForCleanup(id).isEmpty()) {
        return new Outcome(true, false, removed);
      }
      List<StorageLocation> live = lifecycle.objectsWithin(prefix);
      if (!live.isEmpty() || namespaces.hasObjects(id)) {
        lifecycle.recordCleanupProgress(id, removed, Optional.of(
            "kept: " + live.size() + " live table(s) or view(s) have files under the prefix"),
            clock.instant());
        return new Outcome(true, false, removed);
      }
      claims.releaseAllOf(id);
      droppedTables.release(id);
      lifecycle.purge(id);
      LOG.info("purged deleted namespace {} ({} objects removed from {})", namespace.name(),
          removed, bucket.uriOf(namespace.prefix()));
      return new Outcome(true, true, removed);
    });
  }

  /** The first step: from here on the name belongs to whoever takes it next. */
  private Deleted start(Deleted deleted) {
    Namespace namespace = deleted.namespace();
    if (!deleted.nameReleased()) {
      names.release(namespace.orgId(), namespace.name());
      lifecycle.markNameReleased(namespace.id(), clock.instant());
    }
    lifecycle.recordCleanupAttempt(namespace.id(), clock.instant());
    return deleted;
  }

  /**
   * Deletes what lies under the prefix. Files of catalog objects that still live are kept, and
   * then so is the marker, since the prefix stays claimed for them.
   */
  private long empty(BucketConfig bucket, StorageLocation prefix) {
    BucketStorage files = storage.open(bucket);
    List<StorageLocation> live = lifecycle.objectsWithin(prefix);
    if (live.isEmpty()) {
      return files.deleteUnder(prefix.path());
    }
    long removed = 0;
    for (var key : files.list(prefix.path(), Integer.MAX_VALUE)) {
      boolean keep = key.equals(prefix.path().resolve(PrefixClaimer.MARKER))
          || live.stream().anyMatch(location -> key.isWithin(location.path()));
      if (!keep) {
        files.delete(key);
        removed++;
      }
    }
    return removed;
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
