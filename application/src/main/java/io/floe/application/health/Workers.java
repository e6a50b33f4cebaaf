package io.floe.application.health;

import io.floe.application.model.WorkerOutage;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The background threads a server needs to stay correct (the cache invalidation listener, the
 * cleanup pass, the token-use writer), each a {@link Worker} kept alive through any failure, and
 * which of them are down now.
 */
public final class Workers {
  public static final Duration FIRST_BACKOFF = Duration.ofSeconds(1);
  public static final Duration MAX_BACKOFF = Duration.ofSeconds(30);
  private static final Logger LOG = LoggerFactory.getLogger(Workers.class);

  private final List<Worker> workers = new CopyOnWriteArrayList<>();
  private final Clock clock;
  private final Duration firstBackoff;
  private final Duration maxBackoff;
  private final Worker.Pause pause;

  public Workers(Clock clock) {
    this(clock, FIRST_BACKOFF, MAX_BACKOFF, Worker.Pause.SLEEP);
  }

  /** Workers whose back-off is waited out by {@code pause}, from {@code first} up to {@code max}. */
  public Workers(Clock clock, Duration first, Duration max, Worker.Pause pause) {
    this.clock = clock;
    this.firstBackoff = first;
    this.maxBackoff = max;
    this.pause = pause;
  }

  /**
   * Starts a thread named {@code name} that runs {@code body} until the worker is closed, and
   * again after every failure, once {@code afterFailure} has put back what a failure in the middle
   * of the body may have left behind.
   */
  public Worker start(String name, Worker.Body body, Runnable afterFailure) {
    Worker worker = new Worker(name, body, afterFailure, clock, firstBackoff, maxBackoff, pause);
    workers.add(worker);
    worker.start();
    return worker;
  }

  /**
   * Starts a thread that runs {@code task} first {@code firstRun} after now, then every
   * {@code period} after the end of the last run. An exception of the task is logged and the next
   * run is the retry; anything worse makes the worker down and restarts it, a period later.
   */
  public Worker every(String name, Duration firstRun, Duration period, Runnable task) {
    return start(name, new Periodic(name, firstRun, period, task), () -> { });
  }

  /** A task run again and again, a period apart; the worker's interruption stops it. */
  private static final class Periodic implements Worker.Body {
    private final String name;
    private final Duration period;
    private final Runnable task;
    private Duration wait;

    Periodic(String name, Duration firstRun, Duration period, Runnable task) {
      this.name = name;
      this.period = period;
      this.task = task;
      this.wait = firstRun;
    }

    @Override
    public void run() throws InterruptedException {
      while (true) {
        Thread.sleep(wait.toMillis());
        wait = period;
        try {
          task.run();
        } catch (RuntimeException e) {
          LOG.warn("{} failed; it runs again in {} s: {}", name, period.toSeconds(),
              e.toString());
        }
      }
    }
  }

  /** The workers that are down now, each with why and until when. */
  public List<WorkerOutage> down() {
    return workers.stream().map(Worker::outage).flatMap(Optional::stream).toList();
  }
}
