package io.floe.application.port.out.contract;

import java.util.concurrent.Callable;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.FutureTask;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * Runs work on a thread of its own while the test's thread holds a transaction open: how the
 * contracts show what another transaction can and cannot do meanwhile.
 */
final class Concurrently {
  /** How long a holder waits, so that work which ignores its locks has time to get through. */
  static final long GRACE_MILLIS = 300;

  private Concurrently() {}

  /** Starts {@code work} on a new thread. */
  static <T> FutureTask<T> start(Callable<T> work) {
    FutureTask<T> task = new FutureTask<>(work);
    Thread thread = new Thread(task, "contract-other-transaction");
    thread.setDaemon(true);
    thread.start();
    return task;
  }

  /** The work's result, or its failure; fails the test if it does not finish within a minute. */
  static <T> T result(FutureTask<T> task) {
    try {
      return task.get(60, TimeUnit.SECONDS);
    } catch (ExecutionException e) {
      if (e.getCause() instanceof RuntimeException cause) {
        throw cause;
      }
      throw new IllegalStateException(e.getCause());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted", e);
    } catch (TimeoutException e) {
      throw new AssertionError("the other transaction did not finish", e);
    }
  }

  /** Gives work that should be waiting its chance to (wrongly) get through. */
  static void grace() {
    try {
      Thread.sleep(GRACE_MILLIS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted", e);
    }
  }
}
