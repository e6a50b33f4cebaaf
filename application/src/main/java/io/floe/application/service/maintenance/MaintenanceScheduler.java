package io.floe.application.service.maintenance;

import io.floe.application.model.MaintenanceJob;
import io.floe.application.port.out.ChangeFeed;
import io.floe.application.port.out.MaintenanceEvents;
import io.floe.application.port.out.MaintenanceExecutor;
import io.floe.application.port.out.MaintenanceJobStore;
import io.floe.application.port.out.MaintenancePolicyStore;
import io.floe.application.port.out.OrgStore;
import io.floe.application.service.catalog.CatalogLocator;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ThreadFactory;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Applies maintenance policies by itself. Each {@link #tick}:
 * <ol>
 *   <li>reads the change feed of every org with a policy and counts what its commits reported,
 *   then plans a job for each written table whose policy says it needs a step
 *   ({@link MaintenancePlanner});
 *   <li>claims due jobs, at most {@code concurrency} at a time, each under a lease renewed while
 *   it runs ({@link JobLeases}), and runs each on the {@link MaintenanceExecutor} of the kind its
 *   policy named ({@link JobRunner}, {@link MaintenanceExecutors}: in process, or a Spark job
 *   with a token for its one table), waiting for its end under that lease.
 * </ol>
 * A job whose replica died is taken over once its lease expired. A failed attempt is retried
 * after a back-off that doubles from {@link #FIRST_BACKOFF} to {@link #MAX_BACKOFF}; after
 * {@link #MAX_ATTEMPTS} the job ends failed. At run time the policy is read again, and only the
 * planned steps it still turns on run. This class only ties the three together and bounds how
 * many jobs run at once.
 */
public final class MaintenanceScheduler implements AutoCloseable {
  public static final Duration LEASE = Duration.ofMinutes(2);
  public static final Duration FIRST_BACKOFF = Duration.ofMinutes(1);
  public static final Duration MAX_BACKOFF = Duration.ofHours(1);
  public static final int MAX_ATTEMPTS = 10;
  private static final Logger LOG = LoggerFactory.getLogger(MaintenanceScheduler.class);

  /** What one tick did. */
  public record Tick(int eventsRead, int jobsPlanned, List<MaintenanceJob> jobsRun) {}

  private final MaintenancePlanner planner;
  private final JobLeases leases;
  private final JobRunner runner;
  private final int concurrency;
  /** Runs the claimed jobs, so that {@code concurrency} of them run at once. */
  private final ExecutorService runners;

  /** A scheduler that runs each job on the executor of the kind its policy named. */
  public MaintenanceScheduler(MaintenanceJobStore jobs, ChangeFeed feed,
      MaintenancePolicyStore policies, OrgStore orgs, CatalogLocator locator, PolicyLevels levels,
      MaintenanceExecutors executors, MaintenanceEvents events, Clock clock, String owner,
      int concurrency) {
    if (concurrency < 1) {
      throw new IllegalArgumentException("a scheduler runs at least one job at a time");
    }
    this.planner = new MaintenancePlanner(jobs, feed, policies, orgs, locator, levels, clock);
    this.runner = new JobRunner(jobs, orgs, locator, levels, executors, events, clock, owner);
    this.concurrency = concurrency;
    this.runners = Executors.newFixedThreadPool(concurrency, daemon("floe-maintenance-job"));
    this.leases = new JobLeases(jobs, clock, owner, LEASE);
  }

  /** Which replica this scheduler is: the owner of the leases it takes. */
  public String owner() {
    return leases.owner();
  }

  /** Reads the feed, plans, and runs the jobs due now (at most {@code concurrency} at once). */
  public Tick tick() {
    int read = readFeeds();
    int planned = plan();
    return new Tick(read, planned, runDue());
  }

  /** Counts what commits reported since the last read; returns the events read. */
  public int readFeeds() {
    return planner.readFeeds();
  }

  /** Plans a job for each table committed to since it was last planned that needs one. */
  public int plan() {
    return planner.plan();
  }

  /**
   * Claims the jobs due now, at most {@code concurrency}, runs them at once and returns them once
   * every one has ended its attempt.
   */
  public List<MaintenanceJob> runDue() {
    List<Future<MaintenanceJob>> running = new ArrayList<>();
    for (int i = 0; i < concurrency; i++) {
      Optional<MaintenanceJob> claimed = leases.claim();
      if (claimed.isEmpty()) {
        break;
      }
      running.add(runners.submit(() -> leases.whileHeld(claimed.get(), runner::run)));
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

  /**
   * Extends the lease of every job this scheduler is running to a full lease from now; done by
   * itself every quarter of a lease. Returns how many leases it still held.
   */
  public int renewLeases() {
    return leases.renew();
  }

  /** The wait after the {@code attempts}-th failed attempt: doubling, capped. */
  public static Duration backoff(int attempts) {
    Duration wait = FIRST_BACKOFF;
    for (int i = 1; i < attempts && wait.compareTo(MAX_BACKOFF) < 0; i++) {
      wait = wait.multipliedBy(2);
    }
    return wait.compareTo(MAX_BACKOFF) > 0 ? MAX_BACKOFF : wait;
  }

  /** Daemon threads: a scheduler never keeps the process alive. */
  static ThreadFactory daemon(String name) {
    return runnable -> {
      Thread thread = new Thread(runnable, name);
      thread.setDaemon(true);
      return thread;
    };
  }

  /** Stops the job and lease threads; a job still running loses its lease and runs again. */
  @Override
  public void close() {
    leases.close();
    runners.shutdownNow();
  }
}
