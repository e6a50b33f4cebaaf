package io.floe.application.service.webhooks;

import static org.assertj.core.api.Assertions.assertThat;

import io.floe.application.model.AuditAction;
import io.floe.application.model.DeliveryAttempt;
import io.floe.application.model.FeedPosition;
import io.floe.application.model.SubscriptionTarget;
import io.floe.application.model.WebhookFilter;
import io.floe.application.model.WebhookSubscription;
import io.floe.application.port.out.DeliveryChannel;
import io.floe.application.port.out.StorageNetwork;
import io.floe.application.port.out.WebhookMetrics;
import io.floe.application.port.out.inmemory.InMemoryWebhookSubscriptionStore;
import io.floe.application.security.OrgContext;
import io.floe.application.service.catalog.CatalogChanges;
import io.floe.application.service.change.ChangePublisher;
import io.floe.application.service.events.EventVisibility;
import io.floe.application.testbed.Testbed;
import io.floe.domain.Action;
import io.floe.domain.BucketConfig;
import io.floe.domain.CatalogObject;
import io.floe.domain.Namespace;
import io.floe.domain.Role;
import io.floe.domain.Visibility;
import java.net.URI;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import org.apache.iceberg.catalog.TableIdentifier;
import org.junit.jupiter.api.Test;

/**
 * Delivering one subscription: only what its owner may read when each event is sent, in feed
 * order, each signed; a failure waits a back-off that doubles on the clock, then the same event
 * again; the subscription pauses after the limit and continues where it stopped once resumed; a
 * target the rule refuses is a failed attempt, not a request; an owner who left the org pauses it.
 */
class SubscriptionDeliveryTest {
  private static final SubscriptionTarget URL =
      new SubscriptionTarget.Webhook(URI.create("https://hooks.example.com/floe"));
  private static final SubscriptionTarget.Kafka TOPIC = new SubscriptionTarget.Kafka(
      "kafka.example.com:9092", "floe-events", true, Optional.of("floe"));
  private static final int PAUSE_AFTER = 3;

  private final Testbed bed = new Testbed();
  private final ChangePublisher publisher = bed.publisher();
  private final Namespace sales = bed.namespace("sales", Visibility.PRIVATE);
  private final Namespace hr = bed.namespace("hr", Visibility.PRIVATE);
  private final InMemoryWebhookSubscriptionStore store =
      new InMemoryWebhookSubscriptionStore(FeedPosition.START);
  private final RecordingSender sender = new RecordingSender();
  private final RecordingPublisher kafka = new RecordingPublisher();
  private StorageNetwork.Reach reach = StorageNetwork.Reach.PUBLIC;
  private final SubscriptionDelivery delivery = new SubscriptionDelivery(store,
      bed.store.changeFeed(), new EventVisibility(bed.store.namespaces(), bed.policy()),
      bed.store.orgs(), bed.store.principals(), new WebhookTargets(new StorageNetwork() {
        @Override
        public Reach reach(String host) {
          return reach;
        }

        @Override
        public List<URI> credentialServers(BucketConfig bucket) {
          return List.of();
        }
      }, false), (target, password, message) -> target instanceof SubscriptionTarget.Kafka topic
          ? kafka.deliver(topic, password, message)
          : sender.deliver((SubscriptionTarget.Webhook) target, password, message),
      WebhookMetrics.NONE,
      new RetryPolicy(Duration.ofSeconds(1), Duration.ofSeconds(3), PAUSE_AFTER), bed.clock,
      Duration.ofDays(7), 100);

  /** Answers each request with the next status queued, 204 when none is. */
  private static final class RecordingSender
      implements DeliveryChannel<SubscriptionTarget.Webhook> {
    final Deque<Integer> statuses = new ArrayDeque<>();
    final List<Map<String, String>> headers = new ArrayList<>();
    final List<byte[]> bodies = new ArrayList<>();

    @Override
    public Outcome deliver(SubscriptionTarget.Webhook target, Optional<String> password,
        Message message) {
      headers.add(message.headers());
      bodies.add(message.body());
      int status = statuses.isEmpty() ? 204 : statuses.poll();
      return status < 300 ? Outcome.acknowledged(Optional.of(status))
          : Outcome.failed(Optional.of(status), "the receiver answered " + status);
    }

    List<String> ids() {
      return headers.stream().map(h -> h.get("webhook-id")).toList();
    }
  }

  /** Fails each publication with the next error queued, acknowledges it when none is. */
  private static final class RecordingPublisher
      implements DeliveryChannel<SubscriptionTarget.Kafka> {
    final Deque<String> errors = new ArrayDeque<>();
    final List<String> keys = new ArrayList<>();
    final List<Map<String, String>> headers = new ArrayList<>();
    final List<byte[]> values = new ArrayList<>();
    final List<Optional<String>> passwords = new ArrayList<>();

    @Override
    public Outcome deliver(SubscriptionTarget.Kafka target, Optional<String> password,
        Message message) {
      assertThat(target).isEqualTo(TOPIC);
      passwords.add(password);
      keys.add(message.key());
      headers.add(message.headers());
      values.add(message.body());
      return Optional.ofNullable(errors.poll()).map(why -> Outcome.failed(Optional.empty(), why))
          .orElseGet(() -> Outcome.acknowledged(Optional.empty()));
    }
  }

  private void commit(Namespace namespace, String table) {
    publisher.publish(bed.admin, CatalogChanges.of(AuditAction.TABLE_COMMIT,
        CatalogObject.Kind.TABLE, TableIdentifier.of(namespace.name().value(), table)), () -> {});
  }

  private WebhookSubscription subscribe(OrgContext owner) {
    return store.create(UUID.randomUUID(), bed.org.id(), owner.caller().principal().id(), URL,
        WebhookFilter.ALL, WebhookSignature.secret(new byte[32]), Optional.empty(),
        bed.clock.instant());
  }

  private WebhookSubscription.State state(WebhookSubscription subscription) {
    return store.find(bed.org.id(), subscription.id()).orElseThrow().state();
  }

  private List<String> eventIds() {
    return bed.store.changeFeed().after(bed.org.id(), FeedPosition.START,
        io.floe.application.model.ChangeFilter.ALL, Instant.EPOCH, 100).stream()
        .map(event -> event.eventId().toString()).toList();
  }

  private void deliver(WebhookSubscription subscription) {
    delivery.deliver(bed.org.id(), subscription.id());
  }

  @Test
  void aMemberIsSentWhatItMayReadNowSignedAndInOrder() {
    OrgContext analyst = bed.member("analyst", Role.MEMBER);
    bed.grant(analyst.caller().principal().id(), sales, Optional.empty(), Action.READ);
    WebhookSubscription subscription = subscribe(analyst);
    commit(sales, "orders");
    commit(hr, "people");
    commit(sales, "returns");

    deliver(subscription);

    List<String> all = eventIds();
    assertThat(sender.ids()).containsExactly(all.get(0), all.get(2));
    for (int i = 0; i < sender.bodies.size(); i++) {
      Map<String, String> sent = sender.headers.get(i);
      assertThat(WebhookSignature.verify(store.secret(subscription.id()), sent.get("webhook-id"),
          Long.parseLong(sent.get("webhook-timestamp")), sender.bodies.get(i),
          sent.get("webhook-signature"))).isTrue();
      assertThat(sent.get("Content-Type")).isEqualTo(CloudEvents.CONTENT_TYPE);
    }
    // The event of hr was passed over, never sent: the subscription stands after all three.
    assertThat(state(subscription).position().sequence()).isEqualTo(3);

    // Without the grant, nothing more of sales is sent.
    bed.store.grants().list(bed.org.id(), Optional.empty(), Optional.empty())
        .forEach(grant -> bed.store.grants().delete(grant.entry().id()));
    commit(sales, "orders");
    deliver(subscription);
    assertThat(sender.ids()).hasSize(2);
    assertThat(state(subscription).position().sequence()).isEqualTo(4);
  }

  @Test
  void failuresWaitADoublingBackOffOnTheClockThenPauseUntilResumed() {
    WebhookSubscription subscription = subscribe(bed.admin);
    commit(sales, "orders");
    commit(sales, "returns");
    sender.statuses.addAll(List.of(500, 503, 500));

    deliver(subscription);
    Instant first = bed.clock.instant();
    assertThat(state(subscription).nextAttemptAt()).contains(first.plusSeconds(1));
    deliver(subscription); // not due yet: nothing sent
    assertThat(sender.ids()).hasSize(1);

    bed.clock.advance(Duration.ofSeconds(1));
    deliver(subscription);
    assertThat(state(subscription).nextAttemptAt())
        .contains(bed.clock.instant().plusSeconds(2));
    bed.clock.advance(Duration.ofSeconds(2));
    deliver(subscription);
    WebhookSubscription.State paused = state(subscription);
    assertThat(paused.paused()).isTrue();
    assertThat(paused.pausedReason().orElseThrow())
        .isEqualTo("paused after 3 failed attempts in a row; the last: the receiver answered 500");
    assertThat(store.deliveries(subscription.id(), 10)).extracting(DeliveryAttempt::attempt)
        .containsExactly(3, 2, 1);

    bed.clock.advance(Duration.ofDays(1));
    deliver(subscription);
    assertThat(sender.ids()).hasSize(3).containsOnly(eventIds().get(0));

    store.resume(bed.org.id(), subscription.id());
    deliver(subscription);
    assertThat(sender.ids().subList(3, 5)).containsExactlyElementsOf(eventIds());
    assertThat(state(subscription).consecutiveFailures()).isZero();
  }

  @Test
  void aRefusedTargetIsAFailedAttemptWithoutARequest() {
    WebhookSubscription subscription = subscribe(bed.admin);
    commit(sales, "orders");
    reach = StorageNetwork.Reach.PRIVATE;

    deliver(subscription);

    assertThat(sender.ids()).isEmpty();
    DeliveryAttempt attempt = store.deliveries(subscription.id(), 1).get(0);
    assertThat(attempt.delivered()).isFalse();
    assertThat(attempt.status()).isEmpty();
    assertThat(attempt.error().orElseThrow()).contains("--allow-private-webhook-targets");
  }

  @Test
  void anOwnerWhoIsNoLongerAMemberPausesTheSubscription() {
    WebhookSubscription subscription = store.create(UUID.randomUUID(), bed.org.id(),
        UUID.randomUUID(), URL, WebhookFilter.ALL, WebhookSignature.secret(new byte[32]),
        Optional.empty(), bed.clock.instant());
    commit(sales, "orders");

    deliver(subscription);

    assertThat(sender.ids()).isEmpty();
    assertThat(state(subscription).pausedReason().orElseThrow())
        .contains("no longer a member");
  }

  @Test
  void aKafkaTargetGetsEachEventKeyedByItsObjectSignedAndRetriedLikeAWebhook() {
    WebhookSubscription subscription = store.create(UUID.randomUUID(), bed.org.id(),
        bed.admin.caller().principal().id(), TOPIC, WebhookFilter.ALL,
        WebhookSignature.secret(new byte[32]), Optional.of("pw"), bed.clock.instant());
    commit(sales, "orders");
    commit(hr, "people");
    commit(sales, "orders");
    kafka.errors.add("the Kafka cluster did not acknowledge");

    deliver(subscription);
    assertThat(kafka.keys).hasSize(1);
    assertThat(state(subscription).consecutiveFailures()).isEqualTo(1);
    DeliveryAttempt failed = store.deliveries(subscription.id(), 1).get(0);
    assertThat(failed.error()).contains("the Kafka cluster did not acknowledge");
    assertThat(failed.status()).isEmpty();

    bed.clock.advance(Duration.ofSeconds(1));
    deliver(subscription);
    List<String> ids = eventIds();
    assertThat(kafka.headers.subList(1, 4)).extracting(h -> h.get("webhook-id"))
        .containsExactlyElementsOf(ids);
    String org = bed.org.name().value();
    assertThat(kafka.keys).containsExactly(org + "/sales/orders", org + "/sales/orders",
        org + "/hr/people", org + "/sales/orders");
    assertThat(kafka.passwords).containsOnly(Optional.of("pw"));
    for (int i = 0; i < kafka.values.size(); i++) {
      Map<String, String> sent = kafka.headers.get(i);
      assertThat(sent.get("Content-Type")).isEqualTo(CloudEvents.CONTENT_TYPE);
      assertThat(WebhookSignature.verify(store.secret(subscription.id()), sent.get("webhook-id"),
          Long.parseLong(sent.get("webhook-timestamp")), kafka.values.get(i),
          sent.get("webhook-signature"))).isTrue();
    }
    assertThat(sender.ids()).isEmpty();
    assertThat(state(subscription).position().sequence()).isEqualTo(3);
    assertThat(store.deliveries(subscription.id(), 10)).extracting(DeliveryAttempt::delivered)
        .containsExactly(true, true, true, false);

    // A bootstrap server the rule refuses is a failed attempt, nothing published.
    commit(sales, "orders");
    reach = StorageNetwork.Reach.PRIVATE;
    deliver(subscription);
    assertThat(kafka.keys).hasSize(4);
    assertThat(store.deliveries(subscription.id(), 1).get(0).error().orElseThrow())
        .contains("kafka bootstrap server kafka.example.com:9092",
            "--allow-private-webhook-targets");
  }
}
