package io.floe.adapters.persistence.jooq;

import static io.floe.adapters.persistence.jooq.schema.Tables.WEBHOOK_DELIVERIES;
import static io.floe.adapters.persistence.jooq.schema.Tables.WEBHOOK_SUBSCRIPTIONS;

import io.floe.adapters.persistence.jooq.schema.tables.records.WebhookDeliveriesRecord;
import io.floe.adapters.persistence.jooq.schema.tables.records.WebhookSubscriptionsRecord;
import io.floe.application.model.DeliveryAttempt;
import io.floe.application.model.FeedPosition;
import io.floe.application.model.SubscriptionTarget;
import io.floe.application.model.WebhookFilter;
import io.floe.application.model.WebhookSubscription;
import io.floe.application.port.out.WebhookSubscriptionStore;
import java.net.URI;
import java.time.Duration;
import java.time.Instant;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import org.jooq.DSLContext;
import org.jooq.impl.DSL;

/**
 * Subscriptions in {@code webhook_subscriptions}, to a URL or a Kafka topic, their secrets (and
 * Kafka passwords) sealed by the {@link SecretCipher} for their row (as bucket credentials are),
 * and their delivery logs in
 * {@code webhook_deliveries}, cut to the most recent {@link #LOG_SIZE} attempts as each is
 * written.
 */
public final class JooqWebhookSubscriptionStore implements WebhookSubscriptionStore {
  private final DSLContext dsl;
  private final SecretCipher cipher;

  public JooqWebhookSubscriptionStore(Database database, SecretCipher cipher) {
    this.dsl = database.dsl();
    this.cipher = cipher;
  }

  @Override
  public WebhookSubscription create(UUID id, UUID orgId, UUID ownerId,
      SubscriptionTarget target, WebhookFilter filter, String secret,
      Optional<String> kafkaPassword, Instant createdAt) {
    var kafka = target instanceof SubscriptionTarget.Kafka topic ? Optional.of(topic)
        : Optional.<SubscriptionTarget.Kafka>empty();
    return toSubscription(dsl.insertInto(WEBHOOK_SUBSCRIPTIONS)
        .set(WEBHOOK_SUBSCRIPTIONS.ID, id)
        .set(WEBHOOK_SUBSCRIPTIONS.ORG_ID, orgId)
        .set(WEBHOOK_SUBSCRIPTIONS.OWNER_ID, ownerId)
        .set(WEBHOOK_SUBSCRIPTIONS.URL, target instanceof SubscriptionTarget.Webhook webhook
            ? webhook.url().toString() : null)
        .set(WEBHOOK_SUBSCRIPTIONS.KAFKA_BOOTSTRAP_SERVERS,
            kafka.map(SubscriptionTarget.Kafka::bootstrapServers).orElse(null))
        .set(WEBHOOK_SUBSCRIPTIONS.KAFKA_TOPIC, kafka.map(SubscriptionTarget.Kafka::topic)
            .orElse(null))
        .set(WEBHOOK_SUBSCRIPTIONS.KAFKA_TLS, kafka.map(SubscriptionTarget.Kafka::tls)
            .orElse(false))
        .set(WEBHOOK_SUBSCRIPTIONS.KAFKA_USERNAME, kafka.flatMap(SubscriptionTarget.Kafka::username)
            .orElse(null))
        .set(WEBHOOK_SUBSCRIPTIONS.SEALED_KAFKA_PASSWORD, kafkaPassword
            .map(password -> cipher.seal(password, passwordBoundTo(id))).orElse(null))
        .set(WEBHOOK_SUBSCRIPTIONS.FILTER_NAMESPACE, filter.namespace().orElse(null))
        .set(WEBHOOK_SUBSCRIPTIONS.FILTER_TABLE, filter.table().orElse(null))
        .set(WEBHOOK_SUBSCRIPTIONS.FILTER_ACTIONS,
            filter.actions().stream().sorted().toArray(String[]::new))
        .set(WEBHOOK_SUBSCRIPTIONS.SEALED_SECRET, cipher.seal(secret, boundTo(id)))
        .set(WEBHOOK_SUBSCRIPTIONS.CREATED_AT, Times.of(createdAt))
        .set(WEBHOOK_SUBSCRIPTIONS.POSITION_RECORDED_AT, Times.of(createdAt))
        .returning().fetchOne());
  }

  @Override
  public Optional<WebhookSubscription> find(UUID orgId, UUID id) {
    return dsl.selectFrom(WEBHOOK_SUBSCRIPTIONS)
        .where(WEBHOOK_SUBSCRIPTIONS.ORG_ID.eq(orgId), WEBHOOK_SUBSCRIPTIONS.ID.eq(id))
        .fetchOptional(JooqWebhookSubscriptionStore::toSubscription);
  }

  @Override
  public List<WebhookSubscription> list(UUID orgId) {
    return dsl.selectFrom(WEBHOOK_SUBSCRIPTIONS).where(WEBHOOK_SUBSCRIPTIONS.ORG_ID.eq(orgId))
        .orderBy(WEBHOOK_SUBSCRIPTIONS.CREATED_AT, WEBHOOK_SUBSCRIPTIONS.ID)
        .fetch(JooqWebhookSubscriptionStore::toSubscription);
  }

  @Override
  public int count(UUID orgId) {
    return dsl.fetchCount(WEBHOOK_SUBSCRIPTIONS, WEBHOOK_SUBSCRIPTIONS.ORG_ID.eq(orgId));
  }

  @Override
  public boolean delete(UUID orgId, UUID id) {
    return dsl.deleteFrom(WEBHOOK_SUBSCRIPTIONS)
        .where(WEBHOOK_SUBSCRIPTIONS.ORG_ID.eq(orgId), WEBHOOK_SUBSCRIPTIONS.ID.eq(id))
        .execute() > 0;
  }

  @Override
  public boolean resume(UUID orgId, UUID id) {
    return dsl.update(WEBHOOK_SUBSCRIPTIONS)
        .setNull(WEBHOOK_SUBSCRIPTIONS.PAUSED_AT)
        .setNull(WEBHOOK_SUBSCRIPTIONS.PAUSED_REASON)
        .setNull(WEBHOOK_SUBSCRIPTIONS.NEXT_ATTEMPT_AT)
        .set(WEBHOOK_SUBSCRIPTIONS.CONSECUTIVE_FAILURES, 0)
        .where(WEBHOOK_SUBSCRIPTIONS.ORG_ID.eq(orgId), WEBHOOK_SUBSCRIPTIONS.ID.eq(id))
        .execute() > 0;
  }

  @Override
  public List<WebhookSubscription> due(Instant now) {
    return dsl.selectFrom(WEBHOOK_SUBSCRIPTIONS)
        .where(WEBHOOK_SUBSCRIPTIONS.PAUSED_AT.isNull())
        .and(WEBHOOK_SUBSCRIPTIONS.NEXT_ATTEMPT_AT.isNull()
            .or(WEBHOOK_SUBSCRIPTIONS.NEXT_ATTEMPT_AT.le(Times.of(now))))
        .orderBy(WEBHOOK_SUBSCRIPTIONS.CREATED_AT, WEBHOOK_SUBSCRIPTIONS.ID)
        .fetch(JooqWebhookSubscriptionStore::toSubscription);
  }

  @Override
  public String secret(UUID id) {
    String sealed = dsl.select(WEBHOOK_SUBSCRIPTIONS.SEALED_SECRET).from(WEBHOOK_SUBSCRIPTIONS)
        .where(WEBHOOK_SUBSCRIPTIONS.ID.eq(id)).fetchOptional(WEBHOOK_SUBSCRIPTIONS.SEALED_SECRET)
        .orElseThrow(() -> new IllegalStateException("no subscription " + id));
    return cipher.open(sealed, boundTo(id));
  }

  @Override
  public Optional<String> kafkaPassword(UUID id) {
    String sealed = dsl.select(WEBHOOK_SUBSCRIPTIONS.SEALED_KAFKA_PASSWORD)
        .from(WEBHOOK_SUBSCRIPTIONS).where(WEBHOOK_SUBSCRIPTIONS.ID.eq(id))
        .fetchOne(WEBHOOK_SUBSCRIPTIONS.SEALED_KAFKA_PASSWORD);
    return Optional.ofNullable(sealed).map(value -> cipher.open(value, passwordBoundTo(id)));
  }

  @Override
  public void advance(UUID id, FeedPosition position, Optional<DeliveryAttempt> attempt) {
    var update = dsl.update(WEBHOOK_SUBSCRIPTIONS)
        .set(WEBHOOK_SUBSCRIPTIONS.POSITION_TXID, position.transaction())
        .set(WEBHOOK_SUBSCRIPTIONS.POSITION_SEQUENCE, position.sequence())
        .set(WEBHOOK_SUBSCRIPTIONS.POSITION_RECORDED_AT, Times.of(position.recordedAt()))
        .set(WEBHOOK_SUBSCRIPTIONS.CONSECUTIVE_FAILURES, 0)
        .setNull(WEBHOOK_SUBSCRIPTIONS.NEXT_ATTEMPT_AT);
    if (attempt.isPresent()) {
      update = update.set(WEBHOOK_SUBSCRIPTIONS.LAST_DELIVERED_AT,
          Times.of(attempt.get().attemptedAt()));
    }
    update.where(WEBHOOK_SUBSCRIPTIONS.ID.eq(id)).execute();
    attempt.ifPresent(logged -> log(id, logged));
  }

  @Override
  public void failed(UUID id, int failures, Instant nextAttemptAt, Optional<String> pauseReason,
      DeliveryAttempt attempt) {
    dsl.update(WEBHOOK_SUBSCRIPTIONS)
        .set(WEBHOOK_SUBSCRIPTIONS.CONSECUTIVE_FAILURES, failures)
        .set(WEBHOOK_SUBSCRIPTIONS.NEXT_ATTEMPT_AT, Times.of(nextAttemptAt))
        .set(WEBHOOK_SUBSCRIPTIONS.PAUSED_AT,
            pauseReason.map(reason -> Times.of(attempt.attemptedAt())).orElse(null))
        .set(WEBHOOK_SUBSCRIPTIONS.PAUSED_REASON, pauseReason.orElse(null))
        .where(WEBHOOK_SUBSCRIPTIONS.ID.eq(id)).execute();
    log(id, attempt);
  }

  @Override
  public void pause(UUID id, String reason, Instant at) {
    dsl.update(WEBHOOK_SUBSCRIPTIONS)
        .set(WEBHOOK_SUBSCRIPTIONS.PAUSED_AT, Times.of(at))
        .set(WEBHOOK_SUBSCRIPTIONS.PAUSED_REASON, reason)
        .where(WEBHOOK_SUBSCRIPTIONS.ID.eq(id)).execute();
  }

  @Override
  public List<DeliveryAttempt> deliveries(UUID id, int limit) {
    return dsl.selectFrom(WEBHOOK_DELIVERIES).where(WEBHOOK_DELIVERIES.SUBSCRIPTION_ID.eq(id))
        .orderBy(WEBHOOK_DELIVERIES.ID.desc()).limit(limit)
        .fetch(JooqWebhookSubscriptionStore::toAttempt);
  }

  /** Logs an attempt and forgets all but the most recent {@link #LOG_SIZE} of the subscription. */
  private void log(UUID id, DeliveryAttempt attempt) {
    dsl.insertInto(WEBHOOK_DELIVERIES)
        .set(WEBHOOK_DELIVERIES.SUBSCRIPTION_ID, id)
        .set(WEBHOOK_DELIVERIES.EVENT_ID, attempt.eventId())
        .set(WEBHOOK_DELIVERIES.ATTEMPTED_AT, Times.of(attempt.attemptedAt()))
        .set(WEBHOOK_DELIVERIES.ATTEMPT, attempt.attempt())
        .set(WEBHOOK_DELIVERIES.STATUS_CODE, attempt.status().orElse(null))
        .set(WEBHOOK_DELIVERIES.LATENCY_MS, attempt.latency().toMillis())
        .set(WEBHOOK_DELIVERIES.ERROR, attempt.error().map(JooqWebhookSubscriptionStore::bounded)
            .orElse(null))
        .set(WEBHOOK_DELIVERIES.DELIVERED, attempt.delivered())
        .execute();
    dsl.deleteFrom(WEBHOOK_DELIVERIES)
        .where(WEBHOOK_DELIVERIES.SUBSCRIPTION_ID.eq(id))
        .and(WEBHOOK_DELIVERIES.ID.notIn(DSL.select(WEBHOOK_DELIVERIES.ID)
            .from(WEBHOOK_DELIVERIES).where(WEBHOOK_DELIVERIES.SUBSCRIPTION_ID.eq(id))
            .orderBy(WEBHOOK_DELIVERIES.ID.desc()).limit(LOG_SIZE)))
        .execute();
  }

  private static String bounded(String error) {
    return error.length() <= 1_000 ? error : error.substring(0, 1_000) + "…";
  }

  /** The associated data a subscription's secret is sealed with: it opens in this row only. */
  static String boundTo(UUID id) {
    return "webhook subscription " + id;
  }

  /** The associated data a subscription's Kafka password is sealed with. */
  static String passwordBoundTo(UUID id) {
    return "kafka password of subscription " + id;
  }

  private static SubscriptionTarget target(WebhookSubscriptionsRecord row) {
    if (row.getUrl() != null) {
      return new SubscriptionTarget.Webhook(URI.create(row.getUrl()));
    }
    return new SubscriptionTarget.Kafka(row.getKafkaBootstrapServers(), row.getKafkaTopic(),
        row.getKafkaTls(), Optional.ofNullable(row.getKafkaUsername()));
  }

  private static WebhookSubscription toSubscription(WebhookSubscriptionsRecord row) {
    WebhookFilter filter = new WebhookFilter(Optional.ofNullable(row.getFilterNamespace()),
        Optional.ofNullable(row.getFilterTable()),
        Set.copyOf(Arrays.asList(row.getFilterActions())));
    return new WebhookSubscription(row.getId(), row.getOrgId(), row.getOwnerId(),
        target(row), filter, Times.instant(row.getCreatedAt()),
        new WebhookSubscription.State(new FeedPosition(row.getPositionTxid(),
            row.getPositionSequence(), Times.instant(row.getPositionRecordedAt())),
            row.getConsecutiveFailures(), Times.optional(row.getNextAttemptAt()),
            Times.optional(row.getPausedAt()), Optional.ofNullable(row.getPausedReason()),
            Times.optional(row.getLastDeliveredAt())));
  }

  private static DeliveryAttempt toAttempt(WebhookDeliveriesRecord row) {
    return new DeliveryAttempt(row.getEventId(), Times.instant(row.getAttemptedAt()),
        row.getAttempt(), Optional.ofNullable(row.getStatusCode()),
        Duration.ofMillis(row.getLatencyMs()), Optional.ofNullable(row.getError()),
        row.getDelivered());
  }
}
