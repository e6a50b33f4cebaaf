package io.floe.application.health;

import static org.assertj.core.api.Assertions.assertThat;

import io.floe.application.model.WorkerOutage;
import io.floe.application.port.out.inmemory.MovableClock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

class WorkersTest {
  private final MovableClock clock = new MovableClock(Instant.parse("2030-01-01T00:00:00Z"));
  private final List<Duration> pauses = new CopyOnWriteArrayList<>();
  private final Semaphore pausing = new Semaphore(0);
  private final Semaphore resume = new Semaphore(0);
  /** A back-off that waits for the test to let it end, not for time. */
  private final Workers workers = new Workers(clock, Duration.ofSeconds(1), Duration.ofSeconds(30),
      duration -> {
        pauses.add(duration);
        pausing.release();
        resume.acquire();
      });

  @Test
  void aWorkerKilledByAnErrorIsDownUntilItRunsAgain() throws Exception {
    AtomicInteger runs = new AtomicInteger();
    AtomicInteger cleanups = new AtomicInteger();
    CountDownLatch runningAgain = new CountDownLatch(1);
    Worker worker = workers.start("floe-listener-test", () -> {
      if (runs.incrementAndGet() == 1) {
        throw new StackOverflowError("the loop failed in a way it does not catch");
      }
      runningAgain.countDown();
      new CountDownLatch(1).await(); // runs until stopped
    }, cleanups::incrementAndGet);
    try {
      assertThat(pausing.tryAcquire(10, TimeUnit.SECONDS)).isTrue();
      assertThat(workers.down()).containsExactly(new WorkerOutage("floe-listener-test",
          clock.instant(), clock.instant().plusSeconds(1)));
      assertThat(cleanups).hasValue(1);

      resume.release();
      assertThat(runningAgain.await(10, TimeUnit.SECONDS)).isTrue();
      assertThat(workers.down()).isEmpty();
      assertThat(runs).hasValue(2);
    } finally {
      worker.close();
    }
  }

  @Test
  void theBackOffDoublesUpToItsBound() throws Exception {
    AtomicInteger runs = new AtomicInteger();
    CountDownLatch settled = new CountDownLatch(1);
    resume.release(100);
    Worker worker = workers.start("flaky", () -> {
      if (runs.incrementAndGet() <= 7) {
        throw new LinkageError("failed again");
      }
      settled.countDown();
      new CountDownLatch(1).await();
    }, () -> { });
    try {
      assertThat(settled.await(10, TimeUnit.SECONDS)).isTrue();
      assertThat(pauses).containsExactly(Duration.ofSeconds(1), Duration.ofSeconds(2),
          Duration.ofSeconds(4), Duration.ofSeconds(8), Duration.ofSeconds(16),
          Duration.ofSeconds(30), Duration.ofSeconds(30));
    } finally {
      worker.close();
    }
  }

  @Test
  void aPeriodicTaskRetriesAnExceptionNextPeriodAndIsRestartedAfterAnError() throws Exception {
    AtomicInteger runs = new AtomicInteger();
    CountDownLatch fourRuns = new CountDownLatch(4);
    Worker worker = workers.every("floe-cleanup-test", Duration.ZERO, Duration.ofMillis(5), () -> {
      int run = runs.incrementAndGet();
      fourRuns.countDown();
      if (run == 1) {
        throw new IllegalStateException("the database did not answer");
      }
      if (run == 2) {
        throw new AssertionError("a bug, not a fault");
      }
    });
    try {
      // The exception is the next run's to retry; only the error takes the worker down.
      assertThat(pausing.tryAcquire(10, TimeUnit.SECONDS)).isTrue();
      assertThat(runs).hasValue(2);
      assertThat(workers.down()).extracting(WorkerOutage::worker)
          .containsExactly("floe-cleanup-test");
      resume.release();
      assertThat(fourRuns.await(10, TimeUnit.SECONDS)).isTrue();
      assertThat(pauses).hasSize(1);
    } finally {
      worker.close();
    }
  }

  @Test
  void aClosedWorkerEndsItsThreadAndIsNotDown() throws Exception {
    CountDownLatch started = new CountDownLatch(1);
    Worker worker = workers.start("stops", () -> {
      started.countDown();
      new CountDownLatch(1).await();
    }, () -> { });
    assertThat(started.await(10, TimeUnit.SECONDS)).isTrue();
    worker.close();
    assertThat(workers.down()).isEmpty();
    assertThat(pauses).isEmpty();
  }
}
