package io.floe.bootstrap;

import io.floe.application.health.Worker;
import io.floe.application.health.Workers;
import io.floe.application.service.maintenance.MaintenanceScheduler;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Ticks the maintenance scheduler every interval on a thread of its own, kept alive among the
 * server's workers (a failed tick is logged and the next one retries; anything worse makes the
 * worker down, which /ready shows, until it restarts). Commits and loads never wait for it: jobs
 * run on the scheduler's own threads and commit like any client.
 */
final class MaintenanceLoop implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(MaintenanceLoop.class);

  private final MaintenanceScheduler scheduler;
  private final Worker worker;

  MaintenanceLoop(Workers workers, MaintenanceScheduler scheduler, MaintenanceSettings settings) {
    this.scheduler = scheduler;
    this.worker = workers.every("floe-maintenance", settings.interval(), settings.interval(),
        () -> {
          MaintenanceScheduler.Tick tick = scheduler.tick();
          if (tick.jobsPlanned() + tick.jobsRun().size() > 0) {
            LOG.info("maintenance: {} events read, {} jobs planned, {} run", tick.eventsRead(),
                tick.jobsPlanned(), tick.jobsRun().size());
          }
        });
  }

  @Override
  public void close() {
    worker.close();
    scheduler.close();
  }
}
