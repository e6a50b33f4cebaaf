package io.floe.application.service.webhooks;

import java.time.Duration;

/**
 * How failed deliveries are retried: after the n-th failure in a row the next attempt waits
 * {@code first * 2^(n-1)}, at most {@code max}; after {@code pauseAfter} failures in a row the
 * subscription is paused until someone resumes it.
 */
public record RetryPolicy(Duration first, Duration max, int pauseAfter) {
  public static final RetryPolicy DEFAULT = new RetryPolicy(Duration.ofSeconds(1),
      Duration.ofMinutes(5), 10);

  public RetryPolicy {
    if (first.isNegative() || first.isZero() || max.compareTo(first) < 0 || pauseAfter < 1) {
      throw new IllegalArgumentException("back-off must grow from a positive first wait to a "
          + "larger bound, and pausing needs at least one failure");
    }
  }

  /** How long to wait after the {@code failures}-th failure in a row. */
  public Duration backoff(int failures) {
    Duration wait = first;
    for (int i = 1; i < failures && wait.compareTo(max) < 0; i++) {
      wait = wait.multipliedBy(2);
    }
    return wait.compareTo(max) > 0 ? max : wait;
  }

  public boolean pauses(int failures) {
    return failures >= pauseAfter;
  }
}
