package io.floe.application.testbed;

import java.time.Duration;
import java.util.function.BooleanSupplier;

/**
 * Waiting for what another thread, process or server does: asks again every few milliseconds
 * until it holds or a deadline passes. A test that waits for time to pass moves the clock
 * instead ({@code MovableClock}); this is for what real time cannot be moved past.
 */
public final class Poll {
  private static final Duration EVERY = Duration.ofMillis(10);

  private Poll() {}

  /** Whether {@code condition} came to hold within {@code within}; it is asked at least once. */
  public static boolean until(BooleanSupplier condition, Duration within) {
    long deadline = System.nanoTime() + within.toNanos();
    while (!condition.getAsBoolean()) {
      if (System.nanoTime() - deadline >= 0) {
        return false;
      }
      try {
        Thread.sleep(EVERY.toMillis());
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new AssertionError("interrupted while waiting", e);
      }
    }
    return true;
  }

  /** Waits until {@code condition} holds, and fails saying {@code what} if it does not in time. */
  public static void await(BooleanSupplier condition, Duration within, String what) {
    if (!until(condition, within)) {
      throw new AssertionError("not within " + within + ": " + what);
    }
  }
}
