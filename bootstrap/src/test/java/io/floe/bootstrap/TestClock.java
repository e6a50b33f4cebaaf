package io.floe.bootstrap;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.concurrent.atomic.AtomicReference;

/**
 * The time of a test server: the system's, moved forward by as much as the test has advanced it.
 * Time still passes on its own, so what a server stamps keeps its order; a test that needs a token
 * expired or a period over moves the clock instead of sleeping.
 */
final class TestClock extends Clock {
  private final AtomicReference<Duration> ahead = new AtomicReference<>(Duration.ZERO);

  /** Moves the server's time forward by {@code duration}. */
  void advance(Duration duration) {
    if (duration.isNegative()) {
      throw new IllegalArgumentException("time only moves forward: " + duration);
    }
    ahead.accumulateAndGet(duration, Duration::plus);
  }

  @Override
  public Instant instant() {
    return Instant.now().plus(ahead.get());
  }

  @Override
  public ZoneId getZone() {
    return ZoneOffset.UTC;
  }

  @Override
  public Clock withZone(ZoneId zone) {
    throw new UnsupportedOperationException("a test server's clock is in UTC");
  }
}
