package io.floe.adapters.rest.management;

import static io.floe.adapters.rest.slice.FakeAuthentication.ADMIN;
import static io.floe.adapters.rest.slice.FakeAuthentication.MEMBER;
import static io.floe.adapters.rest.slice.FakeAuthentication.ORG;
import static io.floe.adapters.rest.slice.FakeAuthentication.OUTSIDER;
import static org.assertj.core.api.Assertions.assertThat;

import io.floe.adapters.rest.slice.Calls;
import io.floe.adapters.rest.slice.RouteSlice;
import io.floe.adapters.rest.slice.RouteSlice.Answer;
import io.floe.application.model.CreatedSubscription;
import io.floe.application.model.DeliveryAttempt;
import io.floe.application.model.FeedPosition;
import io.floe.application.model.SubscriptionDetails;
import io.floe.application.model.SubscriptionTarget;
import io.floe.application.model.SubscriptionTargetRequest;
import io.floe.application.model.WebhookFilter;
import io.floe.application.model.WebhookSubscription;
import io.floe.application.port.in.webhooks.CreateSubscriptionUseCase;
import io.floe.application.port.in.webhooks.DeleteSubscriptionUseCase;
import io.floe.application.port.in.webhooks.GetSubscriptionUseCase;
import io.floe.application.port.in.webhooks.ListSubscriptionsUseCase;
import io.floe.application.port.in.webhooks.ResumeSubscriptionUseCase;
import io.floe.application.security.OrgContext;
import java.net.URI;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import org.apache.iceberg.exceptions.NotFoundException;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** An org's webhook and Kafka subscriptions, on in-memory use cases. */
class SubscriptionRoutesSliceTest {
  private static final Calls CALLS = new Calls();
  private static final String PATH = "/orgs/acme/subscriptions";
  private static final Instant AT = Instant.parse("2026-03-04T05:06:07Z");
  private static final UUID KNOWN = UUID.fromString("00000000-0000-0000-0000-00000000c0de");
  private static final FakeSubscriptions SUBSCRIPTIONS = new FakeSubscriptions();
  private static RouteSlice slice;

  /** One subscription, {@link #KNOWN}, paused after failures; any other id is unknown. */
  private static final class FakeSubscriptions implements CreateSubscriptionUseCase,
      ListSubscriptionsUseCase, GetSubscriptionUseCase, DeleteSubscriptionUseCase,
      ResumeSubscriptionUseCase {
    volatile SubscriptionTargetRequest target;
    volatile WebhookFilter filter;
    volatile UUID asked;

    @Override
    public CreatedSubscription create(OrgContext context, SubscriptionTargetRequest target,
        WebhookFilter filter) {
      CALLS.record("Subscriptions", "create");
      this.target = target;
      this.filter = filter;
      SubscriptionTarget made = target instanceof SubscriptionTargetRequest.Kafka k
          ? new SubscriptionTarget.Kafka(k.bootstrapServers(), k.topic(), k.tls(), k.username())
          : new SubscriptionTarget.Webhook(
              URI.create(((SubscriptionTargetRequest.Webhook) target).url()));
      return new CreatedSubscription(subscription(context, made, filter, false), "whsec_new");
    }

    @Override
    public List<WebhookSubscription> list(OrgContext context) {
      CALLS.record("Subscriptions", "list");
      return List.of(known(context, true));
    }

    @Override
    public SubscriptionDetails get(OrgContext context, UUID id) {
      CALLS.record("Subscriptions", "get");
      asked = id;
      return new SubscriptionDetails(known(context, true), List.of(new DeliveryAttempt(
          UUID.fromString("00000000-0000-0000-0000-0000000e0e01"), AT, 3, Optional.of(503),
          Duration.ofMillis(42), Optional.of("503 from the receiver"), false)));
    }

    @Override
    public void delete(OrgContext context, UUID id) {
      CALLS.record("Subscriptions", "delete");
      asked = id;
      known(context, false);
    }

    @Override
    public WebhookSubscription resume(OrgContext context, UUID id) {
      CALLS.record("Subscriptions", "resume");
      asked = id;
      return known(context, false);
    }

    private WebhookSubscription known(OrgContext context, boolean paused) {
      if (asked != null && !asked.equals(KNOWN)) {
        throw new NotFoundException("Subscription does not exist: %s", asked);
      }
      return subscription(context, new SubscriptionTarget.Webhook(
          URI.create("https://hooks.example.com/floe")), WebhookFilter.ALL, paused);
    }

    private static WebhookSubscription subscription(OrgContext context,
        SubscriptionTarget target, WebhookFilter filter, boolean paused) {
      return new WebhookSubscription(KNOWN, ORG.id(), context.caller().principal().id(), target,
          filter, AT, new WebhookSubscription.State(FeedPosition.START, paused ? 5 : 0,
              Optional.empty(), paused ? Optional.of(AT) : Optional.empty(),
              paused ? Optional.of("5 failed deliveries") : Optional.empty(), Optional.empty()));
    }
  }

  @BeforeAll
  static void start() {
    slice = RouteSlice.with(CALLS)
        .routes(auth -> new SubscriptionRoutes(auth, SUBSCRIPTIONS, SUBSCRIPTIONS,
            SUBSCRIPTIONS, SUBSCRIPTIONS, SUBSCRIPTIONS))
        .start();
  }

  @AfterAll
  static void stop() {
    slice.close();
  }

  @BeforeEach
  void forget() {
    CALLS.clear();
    SUBSCRIPTIONS.target = null;
    SUBSCRIPTIONS.filter = null;
    SUBSCRIPTIONS.asked = null;
  }

  @Test
  void withoutAValidTokenEveryRouteIs401BeforeAnyUseCase() {
    List<Answer> answers = List.of(
        slice.post(PATH, null, "{\"url\":\"https://hooks.example.com\"}"),
        slice.post(PATH, "forged", "not json"),
        slice.get(PATH, null),
        slice.get(PATH + "/" + KNOWN, "forged"),
        slice.get(PATH + "/not-an-id", null),
        slice.delete(PATH + "/" + KNOWN, null),
        slice.post(PATH + "/" + KNOWN + "/resume", "forged", null));

    for (Answer answer : answers) {
      assertThat(answer.status()).as(answer.toString()).isEqualTo(401);
      assertThat(answer.detail()).isNotBlank();
    }
    assertThat(CALLS.all()).containsOnly("Authenticate.authenticate");
  }

  @Test
  void anOutsiderIsToldTheOrgDoesNotExist() {
    Answer answer = slice.get(PATH, OUTSIDER);

    assertThat(answer.status()).isEqualTo(404);
    assertThat(answer.detail()).isNotBlank();
    assertThat(CALLS.all()).doesNotContain("Subscriptions.list");
  }

  @Test
  void aWebhookIsCreatedWithItsFilterAndTheSecretIsInThisAnswerOnly() {
    Answer created = slice.post(PATH, MEMBER, "{\"url\":\"https://hooks.example.com/floe\","
        + "\"namespace\":\"sales\",\"table\":\"orders\",\"operations\":[\"table.commit\"]}");
    Answer listed = slice.get(PATH, MEMBER);

    assertThat(created.status()).isEqualTo(201);
    assertThat(created.json().path("secret").asText()).isEqualTo("whsec_new");
    assertThat(created.json().path("subscription").path("url").asText())
        .isEqualTo("https://hooks.example.com/floe");
    assertThat(created.json().path("subscription").path("state").asText()).isEqualTo("active");
    assertThat(SUBSCRIPTIONS.target)
        .isEqualTo(new SubscriptionTargetRequest.Webhook("https://hooks.example.com/floe"));
    assertThat(SUBSCRIPTIONS.filter).isEqualTo(new WebhookFilter(Optional.of("sales"),
        Optional.of("orders"), java.util.Set.of("table.commit")));
    assertThat(listed.status()).isEqualTo(200);
    assertThat(listed.body()).doesNotContain("whsec");
    assertThat(listed.json().path("subscriptions").get(0).path("state").asText())
        .isEqualTo("paused");
  }

  @Test
  void aKafkaTargetReachesTheUseCaseWithItsPasswordAndIsShownWithoutIt() {
    Answer created = slice.post(PATH, ADMIN, "{\"kafka\":{\"bootstrap_servers\":\"k1:9092\","
        + "\"topic\":\"floe-events\",\"tls\":true,\"username\":\"floe\","
        + "\"password\":\"hunter2\"}}");

    assertThat(created.status()).as(created.toString()).isEqualTo(201);
    assertThat(SUBSCRIPTIONS.target).isEqualTo(new SubscriptionTargetRequest.Kafka("k1:9092",
        "floe-events", true, Optional.of("floe"), Optional.of("hunter2")));
    var kafka = created.json().path("subscription").path("kafka");
    assertThat(kafka.path("bootstrap_servers").asText()).isEqualTo("k1:9092");
    assertThat(kafka.path("topic").asText()).isEqualTo("floe-events");
    assertThat(kafka.path("tls").asBoolean()).isTrue();
    assertThat(created.body()).doesNotContain("hunter2");
  }

  @Test
  void malformedCreationsAreRefusedInTheManagementShapeAndReachNoUseCase() {
    List<String> bodies = List.of("", "{", "not json", "[]", "{}",
        "{\"url\":\"https://a.example\",\"kafka\":{\"bootstrap_servers\":\"k:1\",\"topic\":\"t\"}}",
        "{\"kafka\":\"k:9092\"}", "{\"kafka\":{\"topic\":\"t\"}}",
        "{\"kafka\":{\"bootstrap_servers\":\"k:1\"}}", "{\"url\":42}",
        "{\"url\":\"https://a.example\",\"operations\":[\"table.explode\"]}",
        "{\"url\":\"https://a.example\",\"operations\":\"table.commit\"}",
        "{\"url\":\"https://a.example\",\"table\":\"orders\"}",
        "{\"url\":\"https://a.example\",\"namespace\":\"a\\u0000b\"}",
        "{\"url\":\"https://a.example\",\"namespace\":\"sales\",\"table\":\"\"}");

    for (String body : bodies) {
      Answer answer = slice.post(PATH, MEMBER, body);
      assertThat(answer.status()).as(body).isIn(400, 422);
      assertThat(answer.detail()).as(body).isNotBlank();
    }
    assertThat(CALLS.all()).doesNotContain("Subscriptions.create");
  }

  @Test
  void oneSubscriptionIsShownWithItsDeliveryLog() {
    Answer answer = slice.get(PATH + "/" + KNOWN, MEMBER);

    assertThat(answer.status()).isEqualTo(200);
    assertThat(SUBSCRIPTIONS.asked).isEqualTo(KNOWN);
    assertThat(answer.json().path("subscription").path("paused_reason").asText())
        .isEqualTo("5 failed deliveries");
    var attempt = answer.json().path("deliveries").get(0);
    assertThat(attempt.path("status").asInt()).isEqualTo(503);
    assertThat(attempt.path("latency_ms").asLong()).isEqualTo(42);
    assertThat(attempt.path("delivered").asBoolean()).isFalse();
  }

  @Test
  void resumeAndDeleteReachTheUseCaseWithTheId() {
    Answer resumed = slice.post(PATH + "/" + KNOWN + "/resume", MEMBER, null);
    Answer deleted = slice.delete(PATH + "/" + KNOWN, MEMBER);

    assertThat(resumed.status()).isEqualTo(200);
    assertThat(resumed.json().path("state").asText()).isEqualTo("active");
    assertThat(deleted.status()).isEqualTo(204);
    assertThat(deleted.body()).isEmpty();
    assertThat(CALLS.all()).contains("Subscriptions.resume", "Subscriptions.delete");
  }

  @Test
  void anUnknownSubscriptionIs404InTheManagementShape() {
    UUID unknown = UUID.fromString("00000000-0000-0000-0000-00000000beef");
    for (Answer answer : List.of(slice.get(PATH + "/" + unknown, MEMBER),
        slice.delete(PATH + "/" + unknown, MEMBER),
        slice.post(PATH + "/" + unknown + "/resume", MEMBER, null))) {
      assertThat(answer.status()).as(answer.toString()).isEqualTo(404);
      assertThat(answer.detail()).contains(unknown.toString());
    }
  }

  @Test
  void aMalformedIdIsRefusedBeforeAnyUseCase() {
    for (String id : List.of("not-an-id", "1234", "00000000-0000-0000-0000-00000000c0dex")) {
      for (Answer answer : List.of(slice.get(PATH + "/" + id, MEMBER),
          slice.delete(PATH + "/" + id, MEMBER),
          slice.post(PATH + "/" + id + "/resume", MEMBER, null))) {
        assertThat(answer.status()).as(id + " " + answer).isIn(400, 422);
        assertThat(answer.detail()).isNotBlank();
      }
    }
    assertThat(CALLS.all()).containsOnly("Authenticate.authenticate", "Authenticate.enterOrg");
  }

  @Test
  void garbageInThePathIs400BeforeAnyUseCase() {
    for (Answer answer : List.of(slice.raw("GET", PATH + "/%ZZ", MEMBER),
        slice.raw("GET", PATH + "/a%00b", MEMBER),
        slice.raw("DELETE", "/orgs/ac%C3%28me/subscriptions/" + KNOWN, MEMBER))) {
      assertThat(answer.status()).as(answer.toString()).isEqualTo(400);
    }
    assertThat(CALLS.all()).doesNotContain("Subscriptions.get", "Subscriptions.delete");
  }
}
