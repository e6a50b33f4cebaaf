package io.floe.application.service;

import static org.assertj.core.api.Assertions.assertThat;

import io.floe.application.health.Worker;
import io.floe.application.health.Workers;
import io.floe.application.model.WorkerOutage;
import io.floe.application.port.out.inmemory.MovableClock;
import java.time.Duration;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;

/** Ready means the database answers and no worker is down; each problem is named. */
class ReadinessServiceTest {
  private final MovableClock clock = new MovableClock();
  private final Semaphore pausing = new Semaphore(0);
  private final Semaphore resume = new Semaphore(0);
  /** A back-off that waits for the test, not for time. */
  private final Workers workers = new Workers(clock, Duration.ofSeconds(1), Duration.ofSeconds(30),
      duration -> {
        pausing.release();
        resume.acquire();
      });
  private final AtomicBoolean reachable = new AtomicBoolean(true);
  private final ReadinessService readiness = new ReadinessService(reachable::get, workers);

  @Test
  void readyWhileTheDatabaseAnswersAndNoWorkerIsDown() {
    assertThat(readiness.readiness().ready()).isTrue();
    assertThat(readiness.readiness().problems()).isEmpty();
    assertThat(readiness.workersDown()).isEmpty();
  }

  @Test
  void aDatabaseThatDoesNotAnswerIsNamed() {
    reachable.set(false);

    assertThat(readiness.readiness().ready()).isFalse();
    assertThat(readiness.readiness().problems())
        .containsExactly("the catalog database does not answer");
  }

  @Test
  void aWorkerThatIsDownIsNamedWithWhenItRunsAgain() throws Exception {
    Worker worker = workers.start("floe-test-worker", () -> {
      throw new IllegalStateException("broken");
    }, () -> { });
    try {
      assertThat(pausing.tryAcquire(10, TimeUnit.SECONDS)).isTrue();

      assertThat(readiness.workersDown()).containsExactly(new WorkerOutage("floe-test-worker",
          clock.instant(), clock.instant().plusSeconds(1)));
      assertThat(readiness.readiness().ready()).isFalse();
      assertThat(readiness.readiness().problems()).singleElement().asString()
          .contains("background worker floe-test-worker is down since " + clock.instant())
          .contains("it runs again at " + clock.instant().plusSeconds(1));
    } finally {
      resume.release(100);
      worker.close();
    }
  }
}
