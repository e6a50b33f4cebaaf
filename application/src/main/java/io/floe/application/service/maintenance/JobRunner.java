package io.floe.application.service.maintenance;

import io.floe.application.health.FatalErrors;
import io.floe.application.iceberg.ForeignTableFileException;
import io.floe.application.model.MaintenanceJob;
import io.floe.application.model.MaintenanceJob.State;
import io.floe.application.model.MaintenanceJob.Step;
import io.floe.application.model.MaintenancePolicy;
import io.floe.application.model.MaintenanceTable;
import io.floe.application.port.out.MaintenanceEvents;
import io.floe.application.port.out.MaintenanceExecutor;
import io.floe.application.port.out.MaintenanceJobStore;
import io.floe.application.port.out.OrgStore;
import io.floe.application.security.MaintenanceSchedulerIdentity;
import io.floe.application.security.OrgContext;
import io.floe.application.service.catalog.CatalogLocator;
import io.floe.application.service.catalog.ResolvedObject;
import io.floe.domain.Org;
import java.time.Clock;
import java.time.Duration;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs one claimed job's attempt and records how it ended. The job's org, table and policy are
 * read again first, since they may have changed since it was planned: a job with nothing left to
 * do is skipped. What remains runs on the executor of the job's kind, looked up by kind only, so
 * every executor's job ends, fails and retries by the same rules.
 */
final class JobRunner {
  private static final int MAX_ERROR = 2000;
  private static final Logger LOG = LoggerFactory.getLogger(JobRunner.class);

  private final MaintenanceJobStore jobs;
  private final OrgStore orgs;
  private final CatalogLocator locator;
  private final PolicyLevels levels;
  private final MaintenanceExecutors executors;
  private final MaintenanceEvents events;
  private final Clock clock;
  private final String owner;

  JobRunner(MaintenanceJobStore jobs, OrgStore orgs, CatalogLocator locator, PolicyLevels levels,
      MaintenanceExecutors executors, MaintenanceEvents events, Clock clock, String owner) {
    this.jobs = jobs;
    this.orgs = orgs;
    this.locator = locator;
    this.levels = levels;
    this.executors = executors;
    this.events = events;
    this.clock = clock;
    this.owner = owner;
  }

  /** Runs the job, which {@code owner} holds, and records its end or its retry. */
  MaintenanceJob run(MaintenanceJob job) {
    Optional<Org> org = orgs.findOrg(job.orgId());
    if (org.isEmpty()) {
      return end(job, State.SKIPPED, "the org no longer exists", MaintenanceTable.Observed.NOTHING);
    }
    OrgContext context = MaintenanceSchedulerIdentity.in(org.get(), job.id());
    Optional<ResolvedObject> object = ScheduledTables.resolve(locator, context, job.namespace(),
        job.name());
    if (object.isEmpty()) {
      jobs.forget(job.orgId(), job.tableKey());
      return end(job, State.SKIPPED, "the table no longer exists",
          MaintenanceTable.Observed.NOTHING);
    }
    // The policy as it is now: a step it no longer turns on does not run.
    MaintenancePolicy policy = levels.effectiveFor(object.get(), context);
    if (PolicySteps.planned(job.steps(), policy).isEmpty()) {
      return end(job, State.SKIPPED, "the policy no longer turns on "
          + job.steps().stream().map(Step::wire).sorted().toList(),
          MaintenanceTable.Observed.NOTHING);
    }
    try {
      MaintenanceExecutor.Outcome outcome = executors.forKind(job.executor()).run(
          new MaintenanceExecutor.Job(job, org.get(), object.get().namespace().id(),
              object.get().object().id(), policy, job.steps(), clock.instant()));
      return end(job, State.SUCCEEDED, outcome.outcome(), outcome.observed());
    } catch (RuntimeException | Error e) {
      FatalErrors.endProcessIfFatal(e);
      return failed(job, e);
    }
  }

  private MaintenanceJob end(MaintenanceJob job, State state, String outcome,
      MaintenanceTable.Observed observed) {
    if (!jobs.finish(job.id(), owner, state, outcome, observed, clock.instant())) {
      LOG.warn("maintenance job {} ended ({}) after its lease was lost", job.id(), outcome);
    }
    events.jobEnded(state);
    return job;
  }

  /**
   * Records a failed attempt: retried after a back-off, or ended failed after the last attempt or
   * when retrying cannot help. An executor's own failure message is kept as it is (it already
   * says why, e.g. an engine's output); any other names its class.
   */
  private MaintenanceJob failed(MaintenanceJob job, Throwable failure) {
    String error = failure instanceof MaintenanceExecutor.Failed ? failure.getMessage()
        : failure.getClass().getSimpleName() + ": " + failure.getMessage();
    if (error.length() > MAX_ERROR) {
      error = error.substring(0, MAX_ERROR);
    }
    // A table whose metadata names a file outside it fails the same way every time: no retry.
    if (job.attempts() >= MaintenanceScheduler.MAX_ATTEMPTS
        || ForeignTableFileException.in(failure).isPresent()) {
      LOG.warn("maintenance job {} of {}.{} failed for the last time", job.id(), job.namespace(),
          job.name(), failure);
      return end(job, State.FAILED, error, MaintenanceTable.Observed.NOTHING);
    }
    Duration backoff = MaintenanceScheduler.backoff(job.attempts());
    LOG.warn("maintenance job {} of {}.{} failed (attempt {}); it runs again in {}", job.id(),
        job.namespace(), job.name(), job.attempts(), backoff, failure);
    jobs.retry(job.id(), owner, error, clock.instant().plus(backoff));
    events.jobEnded(State.PENDING);
    return job;
  }
}
