package io.floe.domain;

import java.time.Duration;

/**
 * The one rule for a duration Floe is given, by a request or by its operator: from zero to
 * {@link #LONGEST}. Floe computes instants from durations (now minus a grace period, now plus a
 * recovery period), and an instant a billion years away is past what {@code java.time} and
 * PostgreSQL can hold; a duration that long is refused where it is given, not midway through the
 * work it was given for.
 */
public final class DurationBounds {
  /** A thousand years: longer than any period means anything to Floe, far inside every range. */
  public static final Duration LONGEST = Duration.ofDays(1000L * 365);

  private DurationBounds() {}

  /** Returns {@code duration}, or refuses it naming {@code what} it is. */
  public static Duration require(Duration duration, String what) {
    if (duration.isNegative() || duration.compareTo(LONGEST) > 0) {
      throw new InvalidDurationException(what + " must be from 0 to " + LONGEST.toSeconds()
          + " seconds (1000 years), got " + duration.toSeconds() + " seconds");
    }
    return duration;
  }

  /** A number of seconds given for {@code what}, under the same rule. */
  public static Duration ofSeconds(long seconds, String what) {
    return require(Duration.ofSeconds(seconds), what);
  }

  /** A duration that breaks the rule. */
  public static final class InvalidDurationException extends DomainException {
    public InvalidDurationException(String message) {
      super(message);
    }
  }
}
