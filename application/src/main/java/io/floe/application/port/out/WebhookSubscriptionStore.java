package io.floe.application.port.out;

import io.floe.application.model.DeliveryAttempt;
import io.floe.application.model.FeedPosition;
import io.floe.application.model.SubscriptionTarget;
import io.floe.application.model.WebhookFilter;
import io.floe.application.model.WebhookSubscription;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.UUID;

/**
 * Subscriptions (to a webhook URL or a Kafka topic), where their delivery stands, and their
 * delivery logs. Every backend keeps these rules: a secret (the signing secret, a Kafka
 * password) is never stored in plain text; a new subscription's position is
 * where the feed stands when it is created (it delivers what commits afterwards); each delivery
 * log keeps at most {@link #LOG_SIZE} attempts, the most recent.
 */
public interface WebhookSubscriptionStore {
  int LOG_SIZE = 100;

  /** {@code kafkaPassword} is the password of a Kafka target's SASL/PLAIN user, if it has one. */
  WebhookSubscription create(UUID id, UUID orgId, UUID ownerId, SubscriptionTarget target,
      WebhookFilter filter, String secret, Optional<String> kafkaPassword, Instant createdAt);

  Optional<WebhookSubscription> find(UUID orgId, UUID id);

  /** The org's subscriptions, oldest first. */
  List<WebhookSubscription> list(UUID orgId);

  int count(UUID orgId);

  boolean delete(UUID orgId, UUID id);

  /** Unpauses the subscription and forgets its failures; false when there is none. */
  boolean resume(UUID orgId, UUID id);

  /** Every org's subscriptions that are not paused and whose next attempt is due at {@code now}. */
  List<WebhookSubscription> due(Instant now);

  /** The secret that signs the subscription's deliveries. */
  String secret(UUID id);

  /** The password of the subscription's Kafka user; empty when it has none. */
  Optional<String> kafkaPassword(UUID id);

  /**
   * The subscription moved on to {@code position}: every event up to it was acknowledged or is
   * not the subscriber's to see; its failures are forgotten. {@code attempt}, when given, goes to
   * the log.
   */
  void advance(UUID id, FeedPosition position, Optional<DeliveryAttempt> attempt);

  /**
   * An attempt failed: the subscription's failures in a row are {@code failures} now, its next
   * attempt is not before {@code nextAttemptAt}, and it is paused for {@code pauseReason} if one
   * is given.
   */
  void failed(UUID id, int failures, Instant nextAttemptAt, Optional<String> pauseReason,
      DeliveryAttempt attempt);

  /** Pauses delivery for {@code reason}, as of {@code at}. */
  void pause(UUID id, String reason, Instant at);

  /** The subscription's most recent attempts, newest first. */
  List<DeliveryAttempt> deliveries(UUID id, int limit);
}
