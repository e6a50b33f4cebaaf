package io.floe.application.service.maintenance;

import io.floe.application.iceberg.ForeignTableFileException;
import io.floe.application.model.ChangeEvent;
import io.floe.application.model.ChangeFilter;
import io.floe.application.model.FeedPosition;
import io.floe.application.model.MaintenanceJob;
import io.floe.application.model.MaintenanceJob.State;
import io.floe.application.model.MaintenanceJob.Step;
import io.floe.application.model.MaintenancePolicy;
import io.floe.application.model.MaintenanceTable;
import io.floe.application.port.out.ChangeFeed;
import io.floe.application.port.out.MaintenanceEvents;
import io.floe.application.port.out.MaintenanceExecutor;
import io.floe.application.port.out.MaintenanceJobStore;
import io.floe.application.port.out.MaintenancePolicyStore;
import io.floe.application.port.out.OrgStore;
import io.floe.application.security.MaintenanceSchedulerIdentity;
import io.floe.application.security.OrgContext;
import io.floe.application.service.catalog.CatalogLocator;
import io.floe.application.service.catalog.ResolvedObject;
import io.floe.application.service.catalog.ResolvedTable;
import io.floe.application.health.FatalErrors;
import io.floe.domain.Org;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.exceptions.NoSuchNamespaceException;
import org.apache.iceberg.exceptions.NoSuchTableException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Applies maintenance policies by itself. Each {@link #tick}:
 * <ol>
 *   <li>reads the change feed of every org with a policy from where the last tick stopped, and
 *   adds what its commits reported (snapshot summaries) to each table's counters; a replica that
 *   read the same events first wins, so no commit counts twice;
 *   <li>plans a job for each table that had commits since it was last planned, when the policy
 *   that applies says it needs a step ({@link MaintenanceNeeds}): only tables that were written
 *   are looked at, and only at their counters;
 *   <li>claims due jobs, at most {@code concurrency} at a time, each under a lease it renews while
 *   it runs, each on the {@link MaintenanceExecutor} of the kind its policy named
 *   ({@link MaintenanceExecutors}: in process, or a Spark job with a token for its one table),
 *   waiting for its end under that lease.
 * </ol>
 * A job whose replica died is taken over once its lease expired. A failed attempt is retried
 * after a back-off that doubles from {@link #FIRST_BACKOFF} to {@link #MAX_BACKOFF}; after
 * {@link #MAX_ATTEMPTS} the job ends failed. At run time the policy is read again, and only the
 * planned steps it still turns on run.
 */
public final class MaintenanceScheduler implements AutoCloseable {
  public static final Duration LEASE = Duration.ofMinutes(2);
  public static final Duration FIRST_BACKOFF = Duration.ofMinutes(1);
  public static final Duration MAX_BACKOFF = Duration.ofHours(1);
  public static final int MAX_ATTEMPTS = 10;
  /** Bounds of one tick's work. */
  static final int EVENTS_PER_ORG = 1000;
  static final int TABLES_PER_TICK = 200;
  private static final int MAX_ERROR = 2000;
  private static final Logger LOG = LoggerFactory.getLogger(MaintenanceScheduler.class);

  /** What one tick did. */
  public record Tick(int eventsRead, int jobsPlanned, List<MaintenanceJob> jobsRun) {}

  private final MaintenanceJobStore jobs;
  private final ChangeFeed feed;
  private final MaintenancePolicyStore policies;
  private final OrgStore orgs;
  private final CatalogLocator locator;
  private final PolicyLevels levels;
  private final MaintenanceExecutors executors;
  private final MaintenanceEvents events;
  private final Clock clock;
  private final String owner;
  private final int concurrency;
  private final ExecutorService runners;
  private final ScheduledExecutorService leases;
  /** The jobs running now, whose leases {@link #renewLeases} extends. */
  private final Map<Long, MaintenanceJob> inFlight = new ConcurrentHashMap<>();

  /** A scheduler that runs each job on the executor of the kind its policy named. */
  public MaintenanceScheduler(MaintenanceJobStore jobs, ChangeFeed feed,
      MaintenancePolicyStore policies, OrgStore orgs, CatalogLocator locator, PolicyLevels levels,
      MaintenanceExecutors executors, MaintenanceEvents events, Clock clock, String owner,
      int concurrency) {
    if (concurrency < 1) {
      throw new IllegalArgumentException("a scheduler runs at least one job at a time");
    }
    this.jobs = jobs;
    this.feed = feed;
    this.policies = policies;
    this.orgs = orgs;
    this.locator = locator;
    this.levels = levels;
    this.executors = executors;
    this.events = events;
    this.clock = clock;
    this.owner = owner;
    this.concurrency = concurrency;
    this.runners = Executors.newFixedThreadPool(concurrency, daemon("floe-maintenance-job"));
    this.leases = Executors.newSingleThreadScheduledExecutor(daemon("floe-maintenance-lease"));
    long every = LEASE.toMillis() / 4;
    leases.scheduleAtFixedRate(this::renewLeases, every, every, TimeUnit.MILLISECONDS);
  }

  /** Which replica this scheduler is: the owner of the leases it takes. */
  public String owner() {
    return owner;
  }

  /** Reads the feed, plans, and runs the jobs due now (at most {@code concurrency} at once). */
  public Tick tick() {
    int read = readFeeds();
    int planned = plan();
    return new Tick(read, planned, runDue());
  }

  /**
   * Reads each policy org's change feed onward from where the last read stopped (a page at most)
   * and adds what its commits reported to the tables' counters; returns the events read. Every
   * event moves the position, commits or not, so a tick never reads the same events again.
   */
  public int readFeeds() {
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

  /** Plans a job for each table committed to since it was last planned that needs one. */
  public int plan() {
    int planned = 0;
    for (MaintenanceTable table : jobs.toPlan(TABLES_PER_TICK)) {
      Optional<OrgContext> context = orgs.findOrg(table.orgId())
          .map(org -> MaintenanceSchedulerIdentity.in(org, 0));
      Optional<ResolvedObject> object = context.flatMap(c -> resolve(c, table.namespace(),
          table.name()));
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

  private Optional<ResolvedObject> resolve(OrgContext context, String namespace, String name) {
    try {
      ResolvedTable table = locator.table(context, identifier(namespace, name));
      return table instanceof ResolvedObject object ? Optional.of(object) : Optional.empty();
    } catch (NoSuchTableException | NoSuchNamespaceException e) {
      return Optional.empty();
    }
  }

  /**
   * Claims the jobs due now, at most {@code concurrency}, runs them at once and returns them once
   * every one has ended its attempt.
   */
  public List<MaintenanceJob> runDue() {
    List<Future<MaintenanceJob>> running = new ArrayList<>();
    for (int i = 0; i < concurrency; i++) {
      Optional<MaintenanceJob> claimed = jobs.claim(owner, clock.instant(), LEASE);
      if (claimed.isEmpty()) {
        break;
      }
      running.add(runners.submit(() -> runLeased(claimed.get())));
    }
    List<MaintenanceJob> ran = new ArrayList<>();
    for (Future<MaintenanceJob> job : running) {
      try {
        ran.add(job.get());
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        break;
      } catch (ExecutionException e) {
        LOG.warn("a maintenance job could not be recorded; its lease expires and it runs again",
            e.getCause());
      }
    }
    return ran;
  }

  /** Runs a claimed job; its lease is renewed by {@link #renewLeases} while it runs. */
  private MaintenanceJob runLeased(MaintenanceJob job) {
    inFlight.put(job.id(), job);
    try {
      return run(job);
    } finally {
      inFlight.remove(job.id());
    }
  }

  /**
   * Extends the lease of every job this scheduler is running to a full lease from now; called
   * every quarter of a lease while the scheduler runs. Returns how many leases it still held.
   */
  public int renewLeases() {
    int held = 0;
    for (MaintenanceJob job : inFlight.values()) {
      try {
        if (jobs.renew(job.id(), owner, clock.instant().plus(LEASE))) {
          held++;
        } else {
          LOG.warn("maintenance job {} of {}.{}: its lease was lost", job.id(), job.namespace(),
              job.name());
        }
      } catch (RuntimeException e) {
        LOG.warn("maintenance job {}: its lease could not be renewed", job.id(), e);
      }
    }
    return held;
  }

  private MaintenanceJob run(MaintenanceJob job) {
    Optional<Org> org = orgs.findOrg(job.orgId());
    if (org.isEmpty()) {
      return end(job, State.SKIPPED, "the org no longer exists", MaintenanceTable.Observed.NOTHING);
    }
    OrgContext context = MaintenanceSchedulerIdentity.in(org.get(), job.id());
    Optional<ResolvedObject> object = resolve(context, job.namespace(), job.name());
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

  private MaintenanceJob failed(MaintenanceJob job, Throwable failure) {
    String error = failure instanceof MaintenanceExecutor.Failed ? failure.getMessage()
        : failure.getClass().getSimpleName() + ": " + failure.getMessage();
    if (error.length() > MAX_ERROR) {
      error = error.substring(0, MAX_ERROR);
    }
    // A table whose metadata names a file outside it fails the same way every time: no retry.
    if (job.attempts() >= MAX_ATTEMPTS || ForeignTableFileException.in(failure).isPresent()) {
      LOG.warn("maintenance job {} of {}.{} failed for the last time", job.id(), job.namespace(),
          job.name(), failure);
      return end(job, State.FAILED, error, MaintenanceTable.Observed.NOTHING);
    }
    Duration backoff = backoff(job.attempts());
    LOG.warn("maintenance job {} of {}.{} failed (attempt {}); it runs again in {}", job.id(),
        job.namespace(), job.name(), job.attempts(), backoff, failure);
    jobs.retry(job.id(), owner, error, clock.instant().plus(backoff));
    events.jobEnded(State.PENDING);
    return job;
  }

  /** The wait after the {@code attempts}-th failed attempt: doubling, capped. */
  public static Duration backoff(int attempts) {
    Duration wait = FIRST_BACKOFF;
    for (int i = 1; i < attempts && wait.compareTo(MAX_BACKOFF) < 0; i++) {
      wait = wait.multipliedBy(2);
    }
    return wait.compareTo(MAX_BACKOFF) > 0 ? MAX_BACKOFF : wait;
  }

  private static TableIdentifier identifier(String namespace, String name) {
    return TableIdentifier.of(Namespace.of(namespace), name);
  }

  private static java.util.concurrent.ThreadFactory daemon(String name) {
    return runnable -> {
      Thread thread = new Thread(runnable, name);
      thread.setDaemon(true);
      return thread;
    };
  }

  /** Stops the job and lease threads; a job still running loses its lease and runs again. */
  @Override
  public void close() {
    leases.shutdownNow();
    runners.shutdownNow();
  }
}
