package io.floe.application.service.lifecycle;

import io.floe.application.port.in.lifecycle.RunCleanupUseCase;
import io.floe.application.port.out.ServerWideLocks;
import io.floe.application.security.AccessPolicy;
import io.floe.application.security.OrgContext;
import io.floe.domain.Namespace;
import io.floe.domain.Repo;
import java.time.Clock;
import java.time.Duration;
import java.util.Optional;
import java.util.UUID;

/**
 * The whole cleanup pass: first it undoes creations that never finished (of namespaces and repos
 * alike), then it removes the deleted namespaces and repos whose recovery period has passed. One
 * report for all of it, so operators and the on-demand route see everything a pass did. Passes
 * never overlap, not even on two servers sharing the database: they take turns under a
 * server-wide lock.
 */
public final class CleanupPass implements RunCleanupUseCase {
  /** Creations younger than this may still be running, on this server or another. */
  public static final Duration CREATION_GRACE = Duration.ofMinutes(10);
  private static final String LOCK = "cleanup-pass";

  private final CreationRepair repair;
  private final SoftDeleteCleanup<Namespace> namespaces;
  private final SoftDeleteCleanup<Repo> repos;
  private final AccessPolicy policy;
  private final Clock clock;
  private final ServerWideLocks locks;

  public CleanupPass(CreationRepair repair, SoftDeleteCleanup<Namespace> namespaces,
      SoftDeleteCleanup<Repo> repos, AccessPolicy policy, Clock clock, ServerWideLocks locks) {
    this.repair = repair;
    this.namespaces = namespaces;
    this.repos = repos;
    this.policy = policy;
    this.clock = clock;
    this.locks = locks;
  }

  @Override
  public CleanupReport runFor(OrgContext context) {
    policy.requireAdmin(context, "run the cleanup");
    return run(Optional.of(context.org().id()));
  }

  /** Runs a pass over every org, or over one, once no other pass is running anywhere. */
  public CleanupReport run(Optional<UUID> orgId) {
    return locks.runExclusively(LOCK, () -> pass(orgId));
  }

  /**
   * Runs a pass over every org unless one is running on any server: what the periodic pass does,
   * since the running one does the same work. Empty when it did not run.
   */
  public Optional<CleanupReport> runUnlessRunning() {
    return locks.runIfFree(LOCK, () -> pass(Optional.empty()));
  }

  private CleanupReport pass(Optional<UUID> orgId) {
    int undone = repair.repairStartedBefore(clock.instant().minus(CREATION_GRACE));
    SoftDeleteCleanup.Tally namespaceTally = namespaces.run(orgId);
    SoftDeleteCleanup.Tally repoTally = repos.run(orgId);
    return new CleanupReport(undone, namespaceTally.purged(),
        namespaceTally.objectsDeleted() + repoTally.objectsDeleted(), namespaceTally.kept(),
        namespaceTally.failures() + repoTally.failures(), repoTally.purged());
  }
}
