package io.floe.bootstrap;

import io.floe.application.port.in.lifecycle.RunCleanupUseCase.CleanupReport;
import io.floe.application.service.lifecycle.CleanupPass;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs the cleanup pass soon after start, which finishes whatever a crash left half done, and
 * then every {@code period}, unless another server sharing the database is running one. One daemon
 * thread; a failed pass is logged and the next one retries.
 */
final class CleanupScheduler implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(CleanupScheduler.class);

  private final ScheduledExecutorService executor;

  CleanupScheduler(CleanupPass cleanup, Duration firstRunAfter, Duration period) {
    this.executor = Executors.newSingleThreadScheduledExecutor(runnable -> {
      Thread thread = new Thread(runnable, "floe-cleanup");
      thread.setDaemon(true);
      return thread;
    });
    executor.scheduleWithFixedDelay(() -> runQuietly(cleanup), firstRunAfter.toMillis(),
        period.toMillis(), TimeUnit.MILLISECONDS);
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
    executor.shutdownNow();
    try {
      executor.awaitTermination(10, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
