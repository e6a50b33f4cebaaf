package io.floe.application.service.maintenance;

import io.floe.application.model.MaintenanceJob;
import io.floe.application.port.out.MaintenanceJobStore;
import java.time.Clock;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One replica's leases on jobs, in the job store (PostgreSQL in production), which every replica
 * shares: a job is claimed under a lease, and the lease of every job still running here is renewed
 * on a thread of its own every quarter of a lease, so a long job is never taken over while this
 * replica lives, and is taken over once it died and the lease ran out.
 */
final class JobLeases implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(JobLeases.class);

  private final MaintenanceJobStore jobs;
  private final Clock clock;
  private final String owner;
  private final Duration lease;
  private final ScheduledExecutorService renewals;
  /** The jobs running now, whose leases {@link #renew} extends. */
  private final Map<Long, MaintenanceJob> inFlight = new ConcurrentHashMap<>();

  JobLeases(MaintenanceJobStore jobs, Clock clock, String owner, Duration lease) {
    this.jobs = jobs;
    this.clock = clock;
    this.owner = owner;
    this.lease = lease;
    this.renewals = Executors.newSingleThreadScheduledExecutor(
        MaintenanceScheduler.daemon("floe-maintenance-lease"));
    long every = lease.toMillis() / 4;
    renewals.scheduleAtFixedRate(this::renew, every, every, TimeUnit.MILLISECONDS);
  }

  /** Which replica holds these leases. */
  String owner() {
    return owner;
  }

  /** Claims the job due longest, if any, for a full lease from now. */
  Optional<MaintenanceJob> claim() {
    return jobs.claim(owner, clock.instant(), lease);
  }

  /** Runs a claimed job while its lease is renewed; it is no longer renewed once it returns. */
  MaintenanceJob whileHeld(MaintenanceJob job, Function<MaintenanceJob, MaintenanceJob> run) {
    inFlight.put(job.id(), job);
    try {
      return run.apply(job);
    } finally {
      inFlight.remove(job.id());
    }
  }

  /**
   * Extends the lease of every job running here to a full lease from now; returns how many
   * leases this replica still held. A lost lease is only logged: the job's end is then refused
   * by the store, and the replica that took it over records it instead.
   */
  int renew() {
    int held = 0;
    for (MaintenanceJob job : inFlight.values()) {
      try {
        if (jobs.renew(job.id(), owner, clock.instant().plus(lease))) {
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

  /** Stops renewing: a job still running loses its lease and runs again elsewhere. */
  @Override
  public void close() {
    renewals.shutdownNow();
  }
}
