package io.floe.application.service.maintenance;

import io.floe.application.model.ChangeEvent;
import io.floe.application.model.ChangeFilter;
import io.floe.application.model.FeedPosition;
import io.floe.application.model.MaintenancePolicy;
import io.floe.application.model.MaintenanceTable;
import io.floe.application.port.out.ChangeFeed;
import io.floe.application.port.out.MaintenanceJobStore;
import io.floe.application.port.out.MaintenancePolicyStore;
import io.floe.application.port.out.OrgStore;
import io.floe.application.security.MaintenanceSchedulerIdentity;
import io.floe.application.security.OrgContext;
import io.floe.application.service.catalog.CatalogLocator;
import io.floe.application.service.catalog.ResolvedObject;
import java.time.Clock;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.UUID;

/**
 * Decides which tables are due: counts what commits reported, from the change feed, and opens a
 * job for a table when the policy that applies says it needs a step ({@link MaintenanceNeeds}).
 * Only tables written since they were last planned are looked at, and only at their counters, so
 * a tick's cost follows the commits, not the size of the catalog.
 */
final class MaintenancePlanner {
  /** Bounds of one tick's work, so that a backlog is worked off over several ticks. */
  static final int EVENTS_PER_ORG = 1000;
  static final int TABLES_PER_TICK = 200;

  private final MaintenanceJobStore jobs;
  private final ChangeFeed feed;
  private final MaintenancePolicyStore policies;
  private final OrgStore orgs;
  private final CatalogLocator locator;
  private final PolicyLevels levels;
  private final Clock clock;

  MaintenancePlanner(MaintenanceJobStore jobs, ChangeFeed feed, MaintenancePolicyStore policies,
      OrgStore orgs, CatalogLocator locator, PolicyLevels levels, Clock clock) {
    this.jobs = jobs;
    this.feed = feed;
    this.policies = policies;
    this.orgs = orgs;
    this.locator = locator;
    this.levels = levels;
    this.clock = clock;
  }

  /**
   * Reads each policy org's change feed onward from where the last read stopped (a page at most)
   * and adds what its commits reported to the tables' counters; returns the events read. Every
   * event moves the position, commits or not, so a tick never reads the same events again; the
   * store moves it only from where this read began, so two replicas never count one commit twice.
   */
  int readFeeds() {
    int read = 0;
    for (UUID orgId : policies.orgsWithPolicies()) {
      FeedPosition from = jobs.feedRead(orgId);
      List<ChangeEvent> page = feed.after(orgId, from, ChangeFilter.ALL, Instant.EPOCH,
          EVENTS_PER_ORG);
      if (page.isEmpty()) {
        continue;
      }
      FeedPosition to = page.get(page.size() - 1).position();
      if (jobs.record(orgId, from, to, CommitActivity.of(page), clock.instant())) {
        read += page.size();
      }
    }
    return read;
  }

  /**
   * Plans a job for each table committed to since it was last planned that needs one, to run on
   * the executor its policy names now; a table the catalog no longer has is forgotten.
   */
  int plan() {
    int planned = 0;
    for (MaintenanceTable table : jobs.toPlan(TABLES_PER_TICK)) {
      Optional<OrgContext> context = orgs.findOrg(table.orgId())
          .map(org -> MaintenanceSchedulerIdentity.in(org, 0));
      Optional<ResolvedObject> object = context.flatMap(c -> ScheduledTables.resolve(locator, c,
          table.namespace(), table.name()));
      if (object.isEmpty()) {
        jobs.forget(table.orgId(), table.key());
        continue;
      }
      MaintenancePolicy policy = levels.effectiveFor(object.get(), context.get());
      MaintenanceNeeds.Plan plan = MaintenanceNeeds.of(policy, table, clock.instant());
      if (jobs.plan(table.orgId(), table.namespace(), table.name(), plan.steps(), plan.reason(),
          policy.executorOrDefault(), clock.instant()).isPresent()) {
        planned++;
      }
    }
    return planned;
  }
}
