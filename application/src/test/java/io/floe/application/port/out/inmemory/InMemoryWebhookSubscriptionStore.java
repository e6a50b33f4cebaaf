package io.floe.application.port.out.inmemory;

import io.floe.application.model.DeliveryAttempt;
import io.floe.application.model.FeedPosition;
import io.floe.application.model.SubscriptionTarget;
import io.floe.application.model.WebhookFilter;
import io.floe.application.model.WebhookSubscription;
import io.floe.application.port.out.WebhookSubscriptionStore;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;

/**
 * Webhook subscriptions in memory, for application tests: a new one starts after every event the
 * {@link InMemoryChangeFeed} holds (as the database's starts where the feed stands).
 */
public final class InMemoryWebhookSubscriptionStore implements WebhookSubscriptionStore {
  private final Map<UUID, WebhookSubscription> subscriptions = new LinkedHashMap<>();
  private final Map<UUID, String> secrets = new LinkedHashMap<>();
  private final Map<UUID, String> kafkaPasswords = new LinkedHashMap<>();
  private final Map<UUID, List<DeliveryAttempt>> logs = new LinkedHashMap<>();
  private final FeedPosition start;

  /** Subscriptions created start at {@code start}. */
  public InMemoryWebhookSubscriptionStore(FeedPosition start) {
    this.start = start;
  }

  @Override
  public synchronized WebhookSubscription create(UUID id, UUID orgId, UUID ownerId,
      SubscriptionTarget target, WebhookFilter filter, String secret,
      Optional<String> kafkaPassword, Instant createdAt) {
    WebhookSubscription created = new WebhookSubscription(id, orgId, ownerId, target, filter,
        createdAt, new WebhookSubscription.State(start, 0, Optional.empty(), Optional.empty(),
            Optional.empty(), Optional.empty()));
    subscriptions.put(id, created);
    secrets.put(id, secret);
    kafkaPassword.ifPresent(password -> kafkaPasswords.put(id, password));
    logs.put(id, new ArrayList<>());
    return created;
  }

  @Override
  public synchronized Optional<WebhookSubscription> find(UUID orgId, UUID id) {
    return Optional.ofNullable(subscriptions.get(id)).filter(s -> s.orgId().equals(orgId));
  }

  @Override
  public synchronized List<WebhookSubscription> list(UUID orgId) {
    return subscriptions.values().stream().filter(s -> s.orgId().equals(orgId)).toList();
  }

  @Override
  public synchronized int count(UUID orgId) {
    return list(orgId).size();
  }

  @Override
  public synchronized boolean delete(UUID orgId, UUID id) {
    if (find(orgId, id).isEmpty()) {
      return false;
    }
    subscriptions.remove(id);
    logs.remove(id);
    return true;
  }

  @Override
  public synchronized boolean resume(UUID orgId, UUID id) {
    return find(orgId, id).map(found -> {
      update(id, state(found.state().position(), 0, Optional.empty(), Optional.empty(),
          Optional.empty(), found.state().lastDeliveredAt()));
      return true;
    }).orElse(false);
  }

  @Override
  public synchronized List<WebhookSubscription> due(Instant now) {
    return subscriptions.values().stream().filter(s -> !s.state().paused())
        .filter(s -> s.state().nextAttemptAt().map(at -> !at.isAfter(now)).orElse(true))
        .toList();
  }

  @Override
  public synchronized Optional<String> kafkaPassword(UUID id) {
    return Optional.ofNullable(kafkaPasswords.get(id));
  }

  @Override
  public synchronized String secret(UUID id) {
    return secrets.get(id);
  }

  @Override
  public synchronized void advance(UUID id, FeedPosition position,
      Optional<DeliveryAttempt> attempt) {
    WebhookSubscription found = subscriptions.get(id);
    if (found == null) {
      return;
    }
    update(id, state(position, 0, Optional.empty(), found.state().pausedAt(),
        found.state().pausedReason(), attempt.map(DeliveryAttempt::attemptedAt)
            .or(() -> found.state().lastDeliveredAt())));
    attempt.ifPresent(logged -> log(id, logged));
  }

  @Override
  public synchronized void failed(UUID id, int failures, Instant nextAttemptAt,
      Optional<String> pauseReason, DeliveryAttempt attempt) {
    WebhookSubscription found = subscriptions.get(id);
    if (found == null) {
      return;
    }
    update(id, state(found.state().position(), failures, Optional.of(nextAttemptAt),
        pauseReason.map(reason -> attempt.attemptedAt()), pauseReason,
        found.state().lastDeliveredAt()));
    log(id, attempt);
  }

  @Override
  public synchronized void pause(UUID id, String reason, Instant at) {
    WebhookSubscription found = subscriptions.get(id);
    if (found != null) {
      WebhookSubscription.State s = found.state();
      update(id, state(s.position(), s.consecutiveFailures(), s.nextAttemptAt(), Optional.of(at),
          Optional.of(reason), s.lastDeliveredAt()));
    }
  }

  @Override
  public synchronized List<DeliveryAttempt> deliveries(UUID id, int limit) {
    List<DeliveryAttempt> log = new ArrayList<>(logs.getOrDefault(id, List.of()));
    java.util.Collections.reverse(log);
    return log.stream().limit(limit).toList();
  }

  private void log(UUID id, DeliveryAttempt attempt) {
    List<DeliveryAttempt> log = logs.get(id);
    log.add(attempt);
    while (log.size() > LOG_SIZE) {
      log.remove(0);
    }
  }

  private void update(UUID id, WebhookSubscription.State state) {
    WebhookSubscription s = subscriptions.get(id);
    subscriptions.put(id, new WebhookSubscription(s.id(), s.orgId(), s.ownerId(), s.target(),
        s.filter(), s.createdAt(), state));
  }

  private static WebhookSubscription.State state(FeedPosition position, int failures,
      Optional<Instant> next, Optional<Instant> pausedAt, Optional<String> reason,
      Optional<Instant> lastDelivered) {
    return new WebhookSubscription.State(position, failures, next, pausedAt, reason,
        lastDelivered);
  }
}
