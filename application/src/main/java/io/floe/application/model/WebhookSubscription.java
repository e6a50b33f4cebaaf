package io.floe.application.model;

import java.time.Instant;
import java.util.Objects;
import java.util.Optional;
import java.util.UUID;

/**
 * An org's change feed pushed to {@code target} (a webhook URL or a Kafka topic): the events
 * that match {@code filter} and that its owner may read when each is delivered, in feed order,
 * from {@code state}'s position on.
 */
public record WebhookSubscription(UUID id, UUID orgId, UUID ownerId, SubscriptionTarget target,
    WebhookFilter filter, Instant createdAt, State state) {
  public WebhookSubscription {
    Objects.requireNonNull(id, "id");
    Objects.requireNonNull(orgId, "orgId");
    Objects.requireNonNull(ownerId, "ownerId");
    Objects.requireNonNull(target, "target");
    Objects.requireNonNull(filter, "filter");
    Objects.requireNonNull(createdAt, "createdAt");
    Objects.requireNonNull(state, "state");
  }

  /**
   * Where delivery stands: the position of the last event acknowledged (or passed over, being
   * one the owner may not see), the failures in a row since the last acknowledgement, when the
   * next attempt may be made, and why delivery is paused, if it is.
   */
  public record State(FeedPosition position, int consecutiveFailures,
      Optional<Instant> nextAttemptAt, Optional<Instant> pausedAt, Optional<String> pausedReason,
      Optional<Instant> lastDeliveredAt) {
    public State {
      Objects.requireNonNull(position, "position");
      Objects.requireNonNull(nextAttemptAt, "nextAttemptAt");
      Objects.requireNonNull(pausedAt, "pausedAt");
      Objects.requireNonNull(pausedReason, "pausedReason");
      Objects.requireNonNull(lastDeliveredAt, "lastDeliveredAt");
    }

    public boolean paused() {
      return pausedAt.isPresent();
    }
  }
}
