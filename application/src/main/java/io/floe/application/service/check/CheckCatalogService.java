package io.floe.application.service.check;

import io.floe.application.model.CheckCursor;
import io.floe.application.model.CheckFinding;
import io.floe.application.model.CheckPage;
import io.floe.application.port.in.check.CheckCatalogUseCase;
import io.floe.application.security.AccessPolicy;
import io.floe.application.security.OrgContext;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Runs the checkers one phase after the other, each from where the previous page stopped, until
 * the page's budget is spent or the last phase is complete. It reads only: a check may run at any
 * time next to the server's own work.
 */
public final class CheckCatalogService implements CheckCatalogUseCase {
  private final Map<CheckCursor.Phase, CatalogChecker> checkers =
      new EnumMap<>(CheckCursor.Phase.class);
  private final AccessPolicy policy;

  public CheckCatalogService(AccessPolicy policy, MetadataFileChecker metadata,
      RepoTableChecker repoTables, PrefixClaimChecker prefixes,
      OverdueDeletionChecker deletions) {
    this.policy = policy;
    for (CatalogChecker checker : List.of(metadata, repoTables, prefixes, deletions)) {
      checkers.put(checker.phase(), checker);
    }
  }

  @Override
  public CheckPage check(OrgContext context, CheckCursor from, int limit) {
    policy.requireAdmin(context, "check the catalog");
    Budget budget = new Budget(Math.max(1, Math.min(limit, CheckPage.MAX_LIMIT)));
    List<CheckFinding> findings = new ArrayList<>();
    CheckCursor cursor = from;
    while (budget.remaining() > 0) {
      Optional<CheckCursor> next = checkers.get(cursor.phase())
          .check(context.org().id(), cursor, budget, findings);
      if (next.isPresent()) {
        cursor = next.get();
        continue;
      }
      int following = cursor.phase().ordinal() + 1;
      if (following == CheckCursor.Phase.values().length) {
        return new CheckPage(findings, budget.spent(), Optional.empty());
      }
      cursor = CheckCursor.startOf(CheckCursor.Phase.values()[following]);
    }
    return new CheckPage(findings, budget.spent(), Optional.of(cursor));
  }
}
