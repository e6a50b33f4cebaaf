package io.floe.adapters.persistence.jooq;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.floe.application.testbed.Poll;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.FutureTask;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Supplier;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class SharedReadsTest {
  private final SharedReads<String, Long> reads = new SharedReads<>();
  private final ExecutorService pool = Executors.newFixedThreadPool(16);

  @AfterEach
  void stop() {
    pool.shutdownNow();
  }

  @Test
  void readsThatArriveWhileAQueryRunsShareTheOneThatStartsAfterIt() throws Exception {
    CountDownLatch releaseFirst = new CountDownLatch(1);
    AtomicInteger queries = new AtomicInteger();
    Future<Long> first = startHeld("t", () -> {
      queries.incrementAndGet();
      return 1L;
    }, releaseFirst);

    List<FutureTask<Long>> later = new ArrayList<>();
    for (int i = 0; i < 10; i++) {
      later.add(startParked(() -> reads.read("t", () -> {
        queries.incrementAndGet();
        return 2L;
      })));
    }
    assertThat(queries).hasValue(1);
    releaseFirst.countDown();

    assertThat(first.get(10, TimeUnit.SECONDS)).isEqualTo(1L);
    for (FutureTask<Long> read : later) {
      // Not the running query's answer: it may predate what these readers saw committed.
      assertThat(read.get(10, TimeUnit.SECONDS)).isEqualTo(2L);
    }
    assertThat(queries).hasValue(2);
    assertThat(reads.keysInFlight()).isZero();
  }

  @Test
  void noReadSeesLessThanWasWrittenBeforeItBegan() throws Exception {
    AtomicLong committed = new AtomicLong();
    AtomicInteger queries = new AtomicInteger();
    List<Future<Integer>> workers = new ArrayList<>();
    for (int w = 0; w < 16; w++) {
      workers.add(pool.submit(() -> {
        int stale = 0;
        for (int i = 0; i < 300; i++) {
          long acknowledged = committed.incrementAndGet();
          long seen = reads.read("t", () -> {
            queries.incrementAndGet();
            long value = committed.get();
            Thread.onSpinWait();
            return value;
          });
          if (seen < acknowledged) {
            stale++;
          }
        }
        return stale;
      }));
    }
    for (Future<Integer> worker : workers) {
      assertThat(worker.get(60, TimeUnit.SECONDS)).isZero();
    }
    assertThat(queries.get()).isLessThanOrEqualTo(16 * 300);
    assertThat(reads.keysInFlight()).isZero();
  }

  @Test
  void aFailedQueryFailsThoseWhoSharedItAndTheNextReadAsksAgain() throws Exception {
    CountDownLatch releaseFirst = new CountDownLatch(1);
    Future<Long> first = startHeld("t", () -> 1L, releaseFirst);
    FutureTask<Long> failing = startParked(() -> reads.read("t", () -> {
      throw new IllegalStateException("connection lost");
    }));
    FutureTask<Long> sharer = startParked(() -> reads.read("t", () -> {
      throw new AssertionError("a sharer sends nothing of its own");
    }));
    releaseFirst.countDown();

    assertThat(first.get(10, TimeUnit.SECONDS)).isEqualTo(1L);
    assertThatThrownBy(() -> failing.get(10, TimeUnit.SECONDS))
        .hasRootCauseInstanceOf(IllegalStateException.class);
    assertThatThrownBy(() -> sharer.get(10, TimeUnit.SECONDS))
        .hasRootCauseMessage("connection lost");
    assertThat(reads.read("t", () -> 3L)).isEqualTo(3L);
    assertThat(reads.keysInFlight()).isZero();
  }

  @Test
  void differentKeysNeverShare() throws Exception {
    CountDownLatch release = new CountDownLatch(1);
    Future<Long> slow = startHeld("a", () -> 1L, release);
    assertThat(reads.read("b", () -> 2L)).isEqualTo(2L);
    release.countDown();
    assertThat(slow.get(10, TimeUnit.SECONDS)).isEqualTo(1L);
  }

  /**
   * Starts a read of {@code key} whose query answers {@code answer} and then holds until
   * {@code release}; returns once that query is running.
   */
  private Future<Long> startHeld(String key, Supplier<Long> answer, CountDownLatch release)
      throws InterruptedException {
    CountDownLatch started = new CountDownLatch(1);
    Future<Long> read = pool.submit(() -> reads.read(key, () -> {
      long value = answer.get();
      started.countDown();
      await(release);
      return value;
    }));
    assertThat(started.await(10, TimeUnit.SECONDS)).isTrue();
    return read;
  }

  private static void await(CountDownLatch latch) {
    try {
      if (!latch.await(10, TimeUnit.SECONDS)) {
        throw new AssertionError("never released");
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new AssertionError(e);
    }
  }

  /** Starts {@code read} on its own thread and returns once that thread waits for a query. */
  private static FutureTask<Long> startParked(Callable<Long> read) throws InterruptedException {
    FutureTask<Long> task = new FutureTask<>(read);
    Thread thread = new Thread(task);
    thread.setDaemon(true);
    thread.start();
    if (!Poll.until(() -> thread.getState() == Thread.State.WAITING || task.isDone(),
        Duration.ofSeconds(10)) || task.isDone()) {
      throw new AssertionError("the read did not wait for a query: " + thread.getState());
    }
    return task;
  }
}
