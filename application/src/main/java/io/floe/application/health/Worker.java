package io.floe.application.health;

import io.floe.application.model.WorkerOutage;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One background thread the server needs, kept alive: whatever its body throws, an {@code Error}
 * included, is logged, then the body runs again after a back-off that doubles up to a bound (and
 * starts over once the body has run that long without failing). Between the failure and the
 * restart the worker is down ({@link #outage}): readiness says so, and writes are refused at once.
 * An {@link OutOfMemoryError} is the exception: the process ends, since a heap that ran out may
 * have left any other thread's work half done ({@link FatalErrors}).
 */
public final class Worker implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(Worker.class);

  /**
   * What the worker runs: until its work is done (its owner closed it, or the worker
   * {@link #stopping stops}), or until it fails.
   */
  @FunctionalInterface
  public interface Body {
    void run() throws Exception;
  }

  /** How a worker waits out its back-off; tests wait for a signal instead of time. */
  @FunctionalInterface
  public interface Pause {
    Pause SLEEP = duration -> Thread.sleep(duration.toMillis());

    void pause(Duration duration) throws InterruptedException;
  }

  private final String name;
  private final Body body;
  private final Runnable afterFailure;
  private final Clock clock;
  private final Duration firstBackoff;
  private final Duration maxBackoff;
  private final Pause pause;
  private final Thread thread;
  private volatile boolean stopping;
  private volatile WorkerOutage outage;

  Worker(String name, Body body, Runnable afterFailure, Clock clock, Duration firstBackoff,
      Duration maxBackoff, Pause pause) {
    this.name = name;
    this.body = body;
    this.afterFailure = afterFailure;
    this.clock = clock;
    this.firstBackoff = firstBackoff;
    this.maxBackoff = maxBackoff;
    this.pause = pause;
    this.thread = new Thread(this::keepRunning, name);
    thread.setDaemon(true);
  }

  void start() {
    thread.start();
  }

  public String name() {
    return name;
  }

  /** Whether the worker is being stopped: its body returns when it sees this. */
  public boolean stopping() {
    return stopping;
  }

  /** Why the worker is down now, waiting to run again; empty while it runs. */
  public Optional<WorkerOutage> outage() {
    return Optional.ofNullable(outage);
  }

  private void keepRunning() {
    Duration backoff = firstBackoff;
    while (!stopping) {
      long started = System.nanoTime();
      try {
        body.run();
        return; // a body returns when its work is done, such as when its owner closed it
      } catch (Throwable failure) {
        if (stopping) {
          return;
        }
        FatalErrors.endProcessIfFatal(failure);
        if (Duration.ofNanos(System.nanoTime() - started).compareTo(maxBackoff) > 0) {
          backoff = firstBackoff;
        }
        if (!waitOut(failure, backoff)) {
          return;
        }
        backoff = backoff.multipliedBy(2).compareTo(maxBackoff) > 0 ? maxBackoff
            : backoff.multipliedBy(2);
      }
    }
  }

  /** Down for {@code backoff}; false when the worker was stopped meanwhile. */
  private boolean waitOut(Throwable failure, Duration backoff) {
    Instant since = clock.instant();
    outage = new WorkerOutage(name, since, since.plus(backoff));
    try {
      LOG.error("background worker {} failed; it runs again in {} ms", name, backoff.toMillis(),
          failure);
      afterFailure.run();
    } catch (Throwable alsoFailed) {
      FatalErrors.endProcessIfFatal(alsoFailed);
      LOG.error("background worker {} could not clean up after its failure", name, alsoFailed);
    }
    try {
      pause.pause(backoff);
      return !stopping;
    } catch (InterruptedException e) {
      return false;
    } finally {
      outage = null;
    }
  }

  /** Stops the worker: its body sees {@link #stopping}, and its thread is interrupted. */
  @Override
  public void close() {
    close(Duration.ofSeconds(10));
  }

  /** Stops the worker, waiting at most {@code patience} for its thread to end. */
  public void close(Duration patience) {
    stopping = true;
    thread.interrupt();
    try {
      thread.join(patience.toMillis());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
