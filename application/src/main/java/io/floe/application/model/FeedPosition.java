package io.floe.application.model;

import java.time.Instant;
import java.util.Comparator;
import java.util.Objects;

/**
 * Where an event stands in its org's change feed: the transaction that wrote it and its sequence
 * number, compared in that order, and the time it was recorded (which decides whether the feed
 * still serves what follows it). The feed is read in this order and only where no transaction is
 * still running, so a position once reached never has an event appear before it.
 */
public record FeedPosition(long transaction, long sequence, Instant recordedAt)
    implements Comparable<FeedPosition> {
  /** Before every event: the position a reader without a token starts from. */
  public static final FeedPosition START = new FeedPosition(0, 0, Instant.EPOCH);

  private static final Comparator<FeedPosition> ORDER = Comparator
      .comparingLong(FeedPosition::transaction).thenComparingLong(FeedPosition::sequence);

  public FeedPosition {
    Objects.requireNonNull(recordedAt, "recordedAt");
    if (transaction < 0 || sequence < 0) {
      throw new IllegalArgumentException("a feed position is not negative");
    }
  }

  public boolean isStart() {
    return transaction == 0 && sequence == 0;
  }

  @Override
  public int compareTo(FeedPosition other) {
    return ORDER.compare(this, other);
  }
}
