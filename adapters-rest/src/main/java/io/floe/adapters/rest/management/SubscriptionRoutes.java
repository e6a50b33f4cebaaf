package io.floe.adapters.rest.management;

import com.fasterxml.jackson.databind.JsonNode;
import io.floe.application.model.AuditAction;
import io.floe.application.model.CreateNamespaceCommand;
import io.floe.application.model.CreatedSubscription;
import io.floe.application.model.DeliveryAttempt;
import io.floe.application.model.FeedToken;
import io.floe.application.model.Invalid;
import io.floe.application.model.SubscriptionDetails;
import io.floe.application.model.SubscriptionTarget;
import io.floe.application.model.SubscriptionTargetRequest;
import io.floe.application.model.WebhookFilter;
import io.floe.application.model.WebhookSubscription;
import io.floe.application.port.in.access.AuthenticateUseCase;
import io.floe.application.port.in.webhooks.CreateSubscriptionUseCase;
import io.floe.application.port.in.webhooks.DeleteSubscriptionUseCase;
import io.floe.application.port.in.webhooks.GetSubscriptionUseCase;
import io.floe.application.port.in.webhooks.ListSubscriptionsUseCase;
import io.floe.application.port.in.webhooks.ResumeSubscriptionUseCase;
import io.floe.domain.InvalidNameException;
import io.floe.domain.TableName;
import io.javalin.config.RoutesConfig;
import io.javalin.http.Context;
import io.javalin.http.Handler;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import java.util.function.Consumer;
import java.util.stream.Collectors;

/**
 * Subscriptions of an org, to a webhook {@code url} or a {@code kafka} topic:
 * {@code POST /orgs/{org}/subscriptions} creates one (its {@code secret} is in this answer only;
 * a Kafka password is in none), {@code GET} lists those the caller manages,
 * {@code GET .../{id}} shows one with its delivery log, {@code DELETE .../{id}} ends it and
 * {@code POST .../{id}/resume} resumes a paused one.
 */
public final class SubscriptionRoutes implements Consumer<RoutesConfig> {
  public static final String PATH = "/orgs/{org}/subscriptions";
  public static final String ONE = PATH + "/{id}";
  private static final int MAX_OPERATIONS = 64;

  /** A Kafka target as the API shows it (never its password). */
  record KafkaBody(String bootstrapServers, String topic, boolean tls, String username) {
    static KafkaBody of(SubscriptionTarget.Kafka kafka) {
      return new KafkaBody(kafka.bootstrapServers(), kafka.topic(), kafka.tls(),
          kafka.username().orElse(null));
    }
  }

  /** A subscription as the API shows it (never its secret); {@code url} or {@code kafka}. */
  record SubscriptionBody(String id, String ownerId, String url, KafkaBody kafka,
      String namespace, String table,
      List<String> operations, Instant createdAt, String state, String pausedReason,
      Instant pausedAt, int consecutiveFailures, Instant nextAttemptAt, Instant lastDeliveredAt,
      String position) {
    static SubscriptionBody of(WebhookSubscription subscription) {
      WebhookSubscription.State state = subscription.state();
      return new SubscriptionBody(subscription.id().toString(),
          subscription.ownerId().toString(),
          subscription.target() instanceof SubscriptionTarget.Webhook webhook
              ? webhook.url().toString() : null,
          subscription.target() instanceof SubscriptionTarget.Kafka kafka ? KafkaBody.of(kafka)
              : null,
          subscription.filter().namespace().orElse(null),
          subscription.filter().table().orElse(null),
          subscription.filter().actions().stream().sorted().toList(), subscription.createdAt(),
          state.paused() ? "paused" : "active", state.pausedReason().orElse(null),
          state.pausedAt().orElse(null), state.consecutiveFailures(),
          state.nextAttemptAt().orElse(null), state.lastDeliveredAt().orElse(null),
          FeedToken.encode(state.position()));
    }
  }

  /** One attempt of the delivery log. */
  record AttemptBody(String eventId, Instant attemptedAt, int attempt, Integer status,
      long latencyMs, boolean delivered, String error) {
    static AttemptBody of(DeliveryAttempt attempt) {
      return new AttemptBody(attempt.eventId().toString(), attempt.attemptedAt(),
          attempt.attempt(), attempt.status().orElse(null), attempt.latency().toMillis(),
          attempt.delivered(), attempt.error().orElse(null));
    }
  }

  record CreatedBody(SubscriptionBody subscription, String secret) {}

  record DetailsBody(SubscriptionBody subscription, List<AttemptBody> deliveries) {}

  record ListBody(List<SubscriptionBody> subscriptions) {}

  private final AuthenticateUseCase authentication;
  private final CreateSubscriptionUseCase create;
  private final ListSubscriptionsUseCase list;
  private final GetSubscriptionUseCase get;
  private final DeleteSubscriptionUseCase delete;
  private final ResumeSubscriptionUseCase resume;

  public SubscriptionRoutes(AuthenticateUseCase authentication, CreateSubscriptionUseCase create,
      ListSubscriptionsUseCase list, GetSubscriptionUseCase get, DeleteSubscriptionUseCase delete,
      ResumeSubscriptionUseCase resume) {
    this.authentication = authentication;
    this.create = create;
    this.list = list;
    this.get = get;
    this.delete = delete;
    this.resume = resume;
  }

  @Override
  public void accept(RoutesConfig routes) {
    routes.post(PATH, handle(r -> {
      var scope = r.scope();
      JsonFields body = new JsonFields(r.body(JsonNode.class));
      CreatedSubscription created = create.create(scope, target(body), filter(body));
      r.respond(201, new CreatedBody(SubscriptionBody.of(created.subscription()),
          created.secret()));
    }));
    routes.get(PATH, handle(r -> {
      var scope = r.scope();
      r.ok(new ListBody(list.list(scope).stream().map(SubscriptionBody::of).toList()));
    }));
    routes.get(ONE, handle(r -> {
      var scope = r.scope();
      SubscriptionDetails details = get.get(scope, id(r));
      r.ok(new DetailsBody(SubscriptionBody.of(details.subscription()),
          details.deliveries().stream().map(AttemptBody::of).toList()));
    }));
    routes.delete(ONE, handle(r -> {
      var scope = r.scope();
      delete.delete(scope, id(r));
      r.respond(204, null);
    }));
    routes.post(ONE + "/resume", handle(r -> {
      var scope = r.scope();
      r.ok(SubscriptionBody.of(resume.resume(scope, id(r))));
    }));
  }

  /** The body's {@code url}, or its {@code kafka} object: one of the two. */
  static SubscriptionTargetRequest target(JsonFields body) {
    Optional<String> url = body.text("url");
    JsonNode kafka = body.node("kafka");
    boolean hasKafka = kafka != null && !kafka.isNull();
    if (url.isPresent() == hasKafka) {
      throw Invalid.because("a subscription needs a url or a kafka target, one of the two");
    }
    if (url.isPresent()) {
      return new SubscriptionTargetRequest.Webhook(url.get());
    }
    if (!kafka.isObject()) {
      throw Invalid.because("kafka must be a JSON object");
    }
    JsonFields fields = new JsonFields(kafka);
    return new SubscriptionTargetRequest.Kafka(
        fields.text("bootstrap_servers").orElseThrow(() -> Invalid.because(
            "kafka.bootstrap_servers is required")),
        fields.text("topic").orElseThrow(() -> Invalid.because("kafka.topic is required")),
        fields.bool("tls").orElse(false), fields.text("username"), fields.text("password"));
  }

  static WebhookFilter filter(JsonFields body) {
    Optional<String> namespace = body.text("namespace")
        .map(raw -> CreateNamespaceCommand.name(raw, "namespace").value());
    Optional<String> table = body.text("table").map(SubscriptionRoutes::tableName);
    Set<String> operations = body.stringSet("operations");
    if (operations.size() > MAX_OPERATIONS) {
      throw Invalid.because("operations may name at most " + MAX_OPERATIONS + " actions");
    }
    Set<String> actions = operations.stream().map(raw -> AuditAction.fromWireName(raw)
        .map(AuditAction::wireName).orElseThrow(() -> Invalid.because("operations must be "
            + "names of changes such as table.commit")))
        .collect(Collectors.toUnmodifiableSet());
    return new WebhookFilter(namespace, table, actions);
  }

  private static String tableName(String raw) {
    try {
      return new TableName(raw).value();
    } catch (InvalidNameException e) {
      throw Invalid.because("invalid table: " + e.getMessage());
    }
  }

  private static UUID id(ManagementRequest r) {
    return AccessRequests.id(r.http().pathParam("id"), "id");
  }

  private Handler handle(Consumer<ManagementRequest> work) {
    return (Context ctx) -> work.accept(new ManagementRequest(ctx, authentication));
  }
}
