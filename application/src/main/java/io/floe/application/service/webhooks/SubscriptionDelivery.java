package io.floe.application.service.webhooks;

import io.floe.application.model.ChangeEvent;
import io.floe.application.model.ChangeFilter;
import io.floe.application.model.DeliveryAttempt;
import io.floe.application.model.FeedPosition;
import io.floe.application.model.SubscriptionTarget;
import io.floe.application.model.WebhookSubscription;
import io.floe.application.port.out.ChangeFeed;
import io.floe.application.port.out.KafkaPublisher;
import io.floe.application.port.out.OrgStore;
import io.floe.application.port.out.PrincipalStore;
import io.floe.application.port.out.WebhookMetrics;
import io.floe.application.port.out.WebhookSender;
import io.floe.application.port.out.WebhookSubscriptionStore;
import io.floe.application.security.Caller;
import io.floe.application.security.OrgContext;
import io.floe.application.service.events.EventVisibility;
import io.floe.domain.Org;
import java.net.URI;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.function.Predicate;

/**
 * Delivers what one subscription has pending, strictly in feed order: each event is sent and
 * acknowledged before the next is sent, so an object's later event never goes out before an
 * earlier one was acknowledged (at the price of one failing event holding back the rest). The
 * position moves on only after an acknowledgement, so an event is delivered at least once, a
 * crash between the two making it twice, with the same id. Who may see an event is decided at
 * delivery, by {@link EventVisibility} for the owner as it is now: an event the owner may no
 * longer read is passed over, never sent.
 *
 * <p>A webhook target gets the event as an HTTP request and counts a {@code 2xx} as the
 * acknowledgement; a Kafka target gets it as a record of its topic, keyed by the changed object
 * ({@link CloudEvents#key}), acknowledged once the cluster has written it. Everything else is the
 * same for both.
 *
 * <p>The caller holds the subscription's server-wide lock: one server delivers it at a time.
 */
public final class SubscriptionDelivery {
  static final int BATCH = 100;
  /** How many pending events the lag metric counts at most. */
  static final int LAG_COUNTED = 1_000;

  private final WebhookSubscriptionStore store;
  private final ChangeFeed feed;
  private final EventVisibility visibility;
  private final OrgStore orgs;
  private final PrincipalStore principals;
  private final WebhookTargets targets;
  private final WebhookSender sender;
  private final KafkaPublisher kafka;
  private final WebhookMetrics metrics;
  private final RetryPolicy retries;
  private final Clock clock;
  private final Duration retention;

  public SubscriptionDelivery(WebhookSubscriptionStore store, ChangeFeed feed,
      EventVisibility visibility, OrgStore orgs, PrincipalStore principals,
      WebhookTargets targets, WebhookSender sender, KafkaPublisher kafka, WebhookMetrics metrics,
      RetryPolicy retries, Clock clock, Duration retention) {
    this.store = store;
    this.feed = feed;
    this.visibility = visibility;
    this.orgs = orgs;
    this.principals = principals;
    this.targets = targets;
    this.sender = sender;
    this.kafka = kafka;
    this.metrics = metrics;
    this.retries = retries;
    this.clock = clock;
    this.retention = retention;
  }

  /** Delivers what is pending for the subscription {@code id}, if it is still due. */
  public void deliver(UUID orgId, UUID id) {
    Instant now = clock.instant();
    Optional<WebhookSubscription> current = store.find(orgId, id)
        .filter(found -> !found.state().paused())
        .filter(found -> found.state().nextAttemptAt().map(at -> !at.isAfter(now)).orElse(true));
    if (current.isEmpty()) {
      return; // deleted, paused or not due since the round began: another server was quicker
    }
    WebhookSubscription subscription = current.get();
    UUID ownerId = subscription.ownerId();
    Optional<Org> org = orgs.findOrg(orgId);
    Optional<OrgContext> owner = org.flatMap(found -> principals
        .findPrincipal(ownerId)
        .flatMap(principal -> OrgContext.enter(new Caller(principal), found, principals)));
    if (owner.isEmpty()) {
      store.pause(id, "the owner of the subscription is no longer a member of the org", now);
      return;
    }
    ChangeFilter filter = subscription.filter().toChangeFilter();
    Predicate<ChangeEvent> visible = visibility.forReader(owner.get(), filter);
    Instant notBefore = now.minus(retention);
    FeedPosition position = subscription.state().position();
    List<ChangeEvent> pending = feed.after(orgId, position, filter, notBefore, BATCH);
    FeedPosition reached = position;
    FeedPosition saved = position;
    String secret = null;
    Optional<String> password = Optional.empty();
    for (ChangeEvent event : pending) {
      if (!visible.test(event)) {
        reached = event.position(); // not the owner's to see now: passed over, never sent
        continue;
      }
      if (secret == null) {
        secret = store.secret(id);
        if (subscription.target() instanceof SubscriptionTarget.Kafka) {
          password = store.kafkaPassword(id);
        }
      }
      int attempt = subscription.state().consecutiveFailures() + 1;
      DeliveryAttempt result = send(subscription, org.get(), secret, password, event,
          attempt);
      if (Thread.currentThread().isInterrupted()) {
        return; // the server is stopping: this attempt counts for nothing, the next start retries
      }
      if (!result.delivered()) {
        if (!reached.equals(saved)) {
          store.advance(id, reached, Optional.empty());
        }
        store.failed(id, attempt, result.attemptedAt().plus(retries.backoff(attempt)),
            retries.pauses(attempt) ? Optional.of("paused after " + attempt
                + " failed attempts in a row; the last: " + result.error().orElse("?"))
                : Optional.empty(), result);
        metrics.failed(id);
        reportLag(subscription, filter, reached, notBefore);
        return;
      }
      reached = event.position();
      saved = reached;
      store.advance(id, reached, Optional.of(result));
      metrics.delivered(id);
      subscription = withNoFailures(subscription);
    }
    if (!reached.equals(saved)) {
      store.advance(id, reached, Optional.empty());
    }
    reportLag(subscription, filter, reached, notBefore);
  }

  private DeliveryAttempt send(WebhookSubscription subscription, Org org, String secret,
      Optional<String> password, ChangeEvent event, int attempt) {
    Instant at = clock.instant();
    SubscriptionTarget target = subscription.target();
    Optional<String> refused = targets.refusal(target);
    if (refused.isPresent()) {
      return new DeliveryAttempt(event.eventId(), at, attempt, Optional.empty(), Duration.ZERO,
          refused, false);
    }
    byte[] body = CloudEvents.structured(org.name().value(), event);
    String messageId = event.eventId().toString();
    long timestamp = at.getEpochSecond();
    Map<String, String> headers = new LinkedHashMap<>();
    headers.put("Content-Type", CloudEvents.CONTENT_TYPE);
    headers.put("webhook-id", messageId);
    headers.put("webhook-timestamp", Long.toString(timestamp));
    headers.put("webhook-signature", WebhookSignature.sign(secret, messageId, timestamp, body));
    long started = System.nanoTime();
    if (target instanceof SubscriptionTarget.Kafka topic) {
      Optional<String> failure = kafka.publish(topic, password,
          CloudEvents.key(org.name().value(), event), kafkaHeaders(headers), body);
      Duration latency = Duration.ofNanos(System.nanoTime() - started);
      return new DeliveryAttempt(event.eventId(), at, attempt, Optional.empty(), latency,
          failure, failure.isEmpty());
    }
    URI url = ((SubscriptionTarget.Webhook) target).url();
    WebhookSender.Response response = sender.post(url, headers, body);
    Duration latency = Duration.ofNanos(System.nanoTime() - started);
    boolean delivered = response.acknowledged();
    Optional<String> error = delivered ? Optional.empty() : response.error()
        .or(() -> response.status().map(status -> "the receiver answered " + status));
    return new DeliveryAttempt(event.eventId(), at, attempt, response.status(), latency, error,
        delivered);
  }

  /**
   * The request's headers as record headers: the content type under the name the CloudEvents
   * Kafka binding gives it ({@code content-type}), the signature headers as they are.
   */
  private static Map<String, String> kafkaHeaders(Map<String, String> headers) {
    Map<String, String> record = new LinkedHashMap<>();
    headers.forEach((name, value) -> record.put(name.toLowerCase(Locale.ROOT), value));
    return record;
  }

  private void reportLag(WebhookSubscription subscription, ChangeFilter filter,
      FeedPosition reached, Instant notBefore) {
    List<ChangeEvent> behind = feed.after(subscription.orgId(), reached, filter, notBefore,
        LAG_COUNTED);
    Duration since = behind.isEmpty() ? Duration.ZERO
        : Duration.between(behind.get(0).entry().recordedAt(), clock.instant());
    metrics.lag(subscription.id(), behind.size(), since.isNegative() ? Duration.ZERO : since);
  }

  private static WebhookSubscription withNoFailures(WebhookSubscription subscription) {
    WebhookSubscription.State state = subscription.state();
    return new WebhookSubscription(subscription.id(), subscription.orgId(),
        subscription.ownerId(), subscription.target(), subscription.filter(),
        subscription.createdAt(), new WebhookSubscription.State(state.position(), 0,
            Optional.empty(), state.pausedAt(), state.pausedReason(), state.lastDeliveredAt()));
  }
}
