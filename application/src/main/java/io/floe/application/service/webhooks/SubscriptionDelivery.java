package io.floe.application.service.webhooks;

import io.floe.application.model.ChangeEvent;
import io.floe.application.model.ChangeFilter;
import io.floe.application.model.DeliveryAttempt;
import io.floe.application.model.FeedPosition;
import io.floe.application.model.SubscriptionTarget;
import io.floe.application.model.WebhookSubscription;
import io.floe.application.port.out.ChangeFeed;
import io.floe.application.port.out.DeliveryChannel;
import io.floe.application.port.out.OrgStore;
import io.floe.application.port.out.PrincipalStore;
import io.floe.application.port.out.WebhookMetrics;
import io.floe.application.port.out.WebhookSubscriptionStore;
import io.floe.application.security.Caller;
import io.floe.application.security.OrgContext;
import io.floe.application.service.events.EventVisibility;
import io.floe.domain.Org;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
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
 * <p>The last step, sending one signed event, is the {@link DeliveryChannel}'s: the server gives
 * this class one channel that picks the adapter of each target's kind (a webhook, a Kafka topic),
 * so everything here is the same for every kind.
 *
 * <p>One call is one turn of the subscription: at most {@code eventsPerTurn} events, so that a
 * subscription with a long backlog gives the worker back to the others between turns. The
 * caller holds the subscription's server-wide lock: one server delivers it at a time.
 */
public final class SubscriptionDelivery {
  /** How many pending events the lag metric counts at most. */
  static final int LAG_COUNTED = 1_000;

  /**
   * What a turn came to: whether the subscription has more pending now (it delivered all it
   * read, and read a full turn), how many attempts it made, whether the last failed, and how
   * long the slowest took.
   */
  public record Turn(boolean morePending, int attempts, boolean failed, Duration slowest) {
    static final Turn NONE = new Turn(false, 0, false, Duration.ZERO);
  }

  private final WebhookSubscriptionStore store;
  private final ChangeFeed feed;
  private final EventVisibility visibility;
  private final OrgStore orgs;
  private final PrincipalStore principals;
  private final WebhookTargets targets;
  private final DeliveryChannel<SubscriptionTarget> channel;
  private final WebhookMetrics metrics;
  private final RetryPolicy retries;
  private final Clock clock;
  private final Duration retention;
  private final int eventsPerTurn;

  public SubscriptionDelivery(WebhookSubscriptionStore store, ChangeFeed feed,
      EventVisibility visibility, OrgStore orgs, PrincipalStore principals,
      WebhookTargets targets, DeliveryChannel<SubscriptionTarget> channel,
      WebhookMetrics metrics, RetryPolicy retries, Clock clock, Duration retention,
      int eventsPerTurn) {
    if (eventsPerTurn < 1) {
      throw new IllegalArgumentException("a turn delivers at least one event");
    }
    this.store = store;
    this.feed = feed;
    this.visibility = visibility;
    this.orgs = orgs;
    this.principals = principals;
    this.targets = targets;
    this.channel = channel;
    this.metrics = metrics;
    this.retries = retries;
    this.clock = clock;
    this.retention = retention;
    this.eventsPerTurn = eventsPerTurn;
  }

  /** One turn of the subscription {@code id}: what is pending, if it is still due. */
  public Turn deliver(UUID orgId, UUID id) {
    Instant now = clock.instant();
    Optional<WebhookSubscription> current = store.find(orgId, id)
        .filter(found -> !found.state().paused())
        .filter(found -> found.state().nextAttemptAt().map(at -> !at.isAfter(now)).orElse(true));
    if (current.isEmpty()) {
      return Turn.NONE; // deleted, paused or not due since it was queued: another server was quicker
    }
    WebhookSubscription subscription = current.get();
    UUID ownerId = subscription.ownerId();
    Optional<Org> org = orgs.findOrg(orgId);
    Optional<OrgContext> owner = org.flatMap(found -> principals
        .findPrincipal(ownerId)
        .flatMap(principal -> OrgContext.enter(new Caller(principal), found, principals)));
    if (owner.isEmpty()) {
      store.pause(id, "the owner of the subscription is no longer a member of the org", now);
      return Turn.NONE;
    }
    ChangeFilter filter = subscription.filter().toChangeFilter();
    Predicate<ChangeEvent> visible = visibility.forReader(owner.get(), filter);
    Instant notBefore = now.minus(retention);
    FeedPosition position = subscription.state().position();
    List<ChangeEvent> pending = feed.after(orgId, position, filter, notBefore, eventsPerTurn);
    FeedPosition reached = position;
    FeedPosition saved = position;
    String secret = null;
    Optional<String> password = Optional.empty();
    int attempts = 0;
    Duration slowest = Duration.ZERO;
    for (ChangeEvent event : pending) {
      if (!visible.test(event)) {
        reached = event.position(); // not the owner's to see now: passed over, never sent
        continue;
      }
      if (secret == null) {
        secret = store.secret(id);
        password = store.kafkaPassword(id);
      }
      int attempt = subscription.state().consecutiveFailures() + 1;
      DeliveryAttempt result = send(subscription, org.get(), secret, password, event,
          attempt);
      attempts++;
      slowest = result.latency().compareTo(slowest) > 0 ? result.latency() : slowest;
      if (Thread.currentThread().isInterrupted()) {
        // The server is stopping: this attempt counts for nothing, the next start retries.
        return new Turn(false, attempts, true, slowest);
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
        return new Turn(false, attempts, true, slowest);
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
    return new Turn(pending.size() == eventsPerTurn, attempts, false, slowest);
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
    DeliveryChannel.Outcome outcome = channel.deliver(target, password,
        new DeliveryChannel.Message(messageId, CloudEvents.key(org.name().value(), event),
            headers, body));
    Duration latency = Duration.ofNanos(System.nanoTime() - started);
    return new DeliveryAttempt(event.eventId(), at, attempt, outcome.status(), latency,
        outcome.delivered() ? Optional.empty() : outcome.error().or(() -> Optional.of("?")),
        outcome.delivered());
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
