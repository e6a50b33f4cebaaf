package io.floe.application.port.out.inmemory;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.concurrent.atomic.AtomicReference;

/** A UTC clock that stands still until a test moves it. */
public final class MovableClock extends Clock {
  /** Where every clock starts: a fixed instant, so that runs are repeatable. */
  public static final Instant START = Instant.parse("2026-01-01T00:00:00Z");

  private final AtomicReference<Instant> now;

  public MovableClock() {
    this(START);
  }

  public MovableClock(Instant start) {
    this.now = new AtomicReference<>(start);
  }

  public void advance(Duration duration) {
    now.updateAndGet(current -> current.plus(duration));
  }

  public void set(Instant instant) {
    now.set(instant);
  }

  @Override
  public Instant instant() {
    return now.get();
  }

  @Override
  public ZoneId getZone() {
    return ZoneOffset.UTC;
  }

  @Override
  public Clock withZone(ZoneId zone) {
    throw new UnsupportedOperationException("a movable clock is always UTC");
  }
}
