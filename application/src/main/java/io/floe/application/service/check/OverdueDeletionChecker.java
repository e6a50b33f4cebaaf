package io.floe.application.service.check;

import io.floe.application.model.CheckCursor;
import io.floe.application.model.CheckFinding;
import io.floe.application.port.out.SoftDeleteStore;
import io.floe.domain.Namespace;
import io.floe.domain.Repo;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.UUID;

/**
 * Reports soft-deleted namespaces and repos whose recovery period ended more than {@link #GRACE}
 * ago and are still there: the cleanup pass, which runs hourly, should have purged them, so it
 * is failing on them or not running. In one step, at most a page's budget of each:
 * enough to tell an operator to look, longest overdue first.
 */
public final class OverdueDeletionChecker implements CatalogChecker {
  /**
   * How long after its recovery period an owner may wait to be purged: two of the server's hourly
   * cleanup passes, so that an owner due just after a pass is not reported.
   */
  public static final Duration GRACE = Duration.ofHours(2);

  private final SoftDeleteStore<Namespace> namespaces;
  private final SoftDeleteStore<Repo> repos;
  private final Clock clock;

  public OverdueDeletionChecker(SoftDeleteStore<Namespace> namespaces,
      SoftDeleteStore<Repo> repos, Clock clock) {
    this.namespaces = namespaces;
    this.repos = repos;
    this.clock = clock;
  }

  @Override
  public CheckCursor.Phase phase() {
    return CheckCursor.Phase.DELETIONS;
  }

  @Override
  public Optional<CheckCursor> check(UUID orgId, CheckCursor from, Budget budget,
      List<CheckFinding> findings) {
    Instant dueBy = clock.instant().minus(GRACE);
    report("namespace", namespaces.dueForCleanup(Optional.of(orgId), dueBy, budget.remaining()),
        findings);
    report("repo", repos.dueForCleanup(Optional.of(orgId), dueBy, budget.remaining()), findings);
    budget.spend(1);
    return Optional.empty();
  }

  private static void report(String kind, List<UUID> overdue, List<CheckFinding> findings) {
    for (UUID id : overdue) {
      findings.add(new CheckFinding(CheckFinding.Kind.OVERDUE_DELETION, kind + " " + id,
          "soft-deleted, its recovery period ended more than " + GRACE.toHours()
              + " hour(s) ago, and it is not cleaned up yet"));
    }
  }
}
