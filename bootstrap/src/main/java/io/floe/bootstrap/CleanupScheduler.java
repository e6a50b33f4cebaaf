package io.floe.bootstrap;

import io.floe.application.port.in.lifecycle.RunCleanupUseCase.CleanupReport;
import io.floe.application.service.lifecycle.CleanupPass;
import io.floe.application.health.Worker;
import io.floe.application.health.Workers;
import java.time.Duration;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs the cleanup pass soon after start, which finishes whatever a crash left half done, and
 * then every {@code period}, unless another server sharing the database is running one. One
 * thread kept alive among the server's workers; a failed pass is logged and the next one retries.
 */
final class CleanupScheduler implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(CleanupScheduler.class);

  private final Worker worker;

  CleanupScheduler(Workers workers, CleanupPass cleanup, Duration firstRunAfter,
      Duration period) {
    this.worker = workers.every("floe-cleanup", firstRunAfter, period, () -> runQuietly(cleanup));
  }

  private static void runQuietly(CleanupPass cleanup) {
    try {
      Optional<CleanupReport> ran = cleanup.runUnlessRunning();
      if (ran.isEmpty()) {
        LOG.debug("cleanup pass skipped: another server is running one");
        return;
      }
      CleanupReport report = ran.get();
      if (report.namespacesPurged() + report.reposPurged() + report.creationsUndone()
          + report.failures() > 0) {
        LOG.info("cleanup pass: {}", report);
      }
    } catch (RuntimeException e) {
      LOG.warn("cleanup pass failed; the next one retries", e);
    }
  }

  @Override
  public void close() {
    worker.close();
  }
}
