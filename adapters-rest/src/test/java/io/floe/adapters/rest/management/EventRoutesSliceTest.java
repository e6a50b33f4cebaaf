package io.floe.adapters.rest.management;

import static io.floe.adapters.rest.slice.FakeAuthentication.ADMIN;
import static io.floe.adapters.rest.slice.FakeAuthentication.MEMBER;
import static io.floe.adapters.rest.slice.FakeAuthentication.OUTSIDER;
import static org.assertj.core.api.Assertions.assertThat;

import io.floe.adapters.rest.iceberg.EventRoutes;
import io.floe.adapters.rest.slice.Calls;
import io.floe.adapters.rest.slice.RouteSlice;
import io.floe.adapters.rest.slice.RouteSlice.Answer;
import io.floe.application.iceberg.MetadataLimits;
import io.floe.application.model.AuditEntry;
import io.floe.application.model.ChangeEvent;
import io.floe.application.model.ChangeEventPage;
import io.floe.application.model.ChangeEventsExpiredException;
import io.floe.application.model.ChangeFilter;
import io.floe.application.model.FeedPosition;
import io.floe.application.model.FeedToken;
import io.floe.application.port.in.events.ReadChangeEventsUseCase;
import io.floe.application.security.OrgContext;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The change feed's two routes, the management API's {@code GET /orgs/{org}/events} and the
 * Iceberg events proposal's {@code POST /iceberg/v1/{prefix}/events}, on an in-memory feed.
 */
class EventRoutesSliceTest {
  private static final Calls CALLS = new Calls();
  private static final String ICEBERG = "/iceberg/v1/acme/events";
  private static final Instant AT = Instant.parse("2026-03-04T05:06:07Z");
  private static final FeedPosition FIRST = new FeedPosition(7, 1, AT);
  private static final FeedPosition EXPIRED = new FeedPosition(1, 1, AT.minusSeconds(86_400));
  private static final FakeFeed FEED = new FakeFeed();
  private static RouteSlice slice;

  /** One table commit in the feed; the position {@link #EXPIRED} is older than its retention. */
  private static final class FakeFeed implements ReadChangeEventsUseCase {
    volatile FeedPosition after;
    volatile ChangeFilter filter;
    volatile int limit;

    @Override
    public ChangeEventPage read(OrgContext context, FeedPosition after, ChangeFilter filter,
        int limit) {
      CALLS.record("ReadChangeEvents", "read");
      this.after = after;
      this.filter = filter;
      this.limit = limit;
      if (after.equals(EXPIRED)) {
        throw new ChangeEventsExpiredException("The position is older than the feed's retention");
      }
      AuditEntry entry = new AuditEntry(1, AT, context.caller().principal().id(),
          context.caller().principal().name(), "table.commit", "table", "sales.orders",
          Map.of("namespace", "sales"), "req-1");
      ChangeEvent event = new ChangeEvent(FIRST,
          UUID.fromString("00000000-0000-0000-0000-0000000e0e01"), entry, 1);
      return after.equals(FIRST) ? new ChangeEventPage(List.of(), FIRST)
          : new ChangeEventPage(List.of(event), FIRST);
    }
  }

  @BeforeAll
  static void start() {
    slice = RouteSlice.with(CALLS)
        .routes(auth -> new EventRoutes(auth, FEED, MetadataLimits.DEFAULTS))
        .routes(auth -> new EventFeedRoutes(auth, FEED))
        .start();
  }

  @AfterAll
  static void stop() {
    slice.close();
  }

  @BeforeEach
  void forget() {
    CALLS.clear();
    FEED.after = null;
    FEED.filter = null;
    FEED.limit = 0;
  }

  @Test
  void withoutAValidTokenBothFeedsAre401BeforeAnyUseCase() {
    Answer management = slice.get("/orgs/acme/events", null);
    Answer forged = slice.get("/orgs/acme/events?limit=oops", "forged");
    Answer iceberg = slice.post(ICEBERG, null, "{}");
    Answer icebergForged = slice.post(ICEBERG, "forged", "not json");

    for (Answer answer : List.of(management, forged)) {
      assertThat(answer.status()).as(answer.toString()).isEqualTo(401);
      assertThat(answer.detail()).isNotBlank();
    }
    for (Answer answer : List.of(iceberg, icebergForged)) {
      assertThat(answer.status()).as(answer.toString()).isEqualTo(401);
      assertThat(answer.icebergError().path("type").asText())
          .isEqualTo("NotAuthorizedException");
    }
    assertThat(CALLS.all()).containsOnly("Authenticate.authenticate");
  }

  @Test
  void anOutsiderOfTheOrgReadsNoFeed() {
    Answer management = slice.get("/orgs/acme/events", OUTSIDER);
    Answer iceberg = slice.post(ICEBERG, OUTSIDER, "{}");

    assertThat(management.status()).isEqualTo(404);
    assertThat(management.detail()).isNotBlank();
    assertThat(iceberg.status()).isEqualTo(404);
    assertThat(iceberg.icebergError()).isNotNull();
    assertThat(CALLS.all()).doesNotContain("ReadChangeEvents.read");
  }

  @Test
  void theManagementFeedAnswersEventsAndWhereToContinue() {
    Answer page = slice.get("/orgs/acme/events", MEMBER);
    Answer next = slice.get("/orgs/acme/events?after=" + FeedToken.encode(FIRST), MEMBER);

    assertThat(page.status()).isEqualTo(200);
    var event = page.json().path("events").get(0);
    assertThat(event.path("action").asText()).isEqualTo("table.commit");
    assertThat(event.path("target_name").asText()).isEqualTo("sales.orders");
    assertThat(event.path("principal_name").asText()).isEqualTo("max");
    assertThat(event.path("position").asText()).isEqualTo(FeedToken.encode(FIRST));
    assertThat(page.json().path("next").asText()).isEqualTo(FeedToken.encode(FIRST));
    assertThat(next.json().path("events")).isEmpty();
    assertThat(FEED.after).isEqualTo(FIRST);
    assertThat(FEED.limit).isEqualTo(ReadChangeEventsUseCase.DEFAULT_LIMIT);
  }

  @Test
  void theManagementFiltersAndLimitReachTheUseCase() {
    Answer answer = slice.get("/orgs/acme/events?action=table.commit&namespace=Sales&limit=5",
        ADMIN);

    assertThat(answer.status()).isEqualTo(200);
    assertThat(FEED.filter.actions()).containsExactly("table.commit");
    assertThat(FEED.filter.namespaces()).containsExactly("sales");
    assertThat(FEED.limit).isEqualTo(5);
  }

  @Test
  void malformedManagementParametersAreRefusedInTheManagementShapeAndReachNoUseCase() {
    // A parameter of the wrong type is the management API's validation error, as FastAPI's.
    for (String query : List.of("limit=ten", "limit=1.5", "limit=99999999999")) {
      Answer answer = slice.get("/orgs/acme/events?" + query, MEMBER);
      assertThat(answer.status()).as(query).isEqualTo(422);
      assertThat(answer.detail()).as(query).contains("limit");
    }
    List<String> queries = List.of("after=not-a-token", "after=" + FeedToken.encode(FIRST) + "!",
        "action=table.explode", "namespace=" + "n".repeat(1001), "namespace=a%01b");

    for (String query : queries) {
      Answer answer = slice.get("/orgs/acme/events?" + query, MEMBER);
      assertThat(answer.status()).as(query).isEqualTo(400);
      assertThat(answer.detail()).as(query).isNotBlank();
    }
    assertThat(CALLS.all()).doesNotContain("ReadChangeEvents.read");
  }

  @Test
  void anExpiredPositionIs410InBothShapes() {
    Answer management = slice.get("/orgs/acme/events?after=" + FeedToken.encode(EXPIRED),
        MEMBER);
    Answer iceberg = slice.post(ICEBERG, MEMBER,
        "{\"continuation-token\":\"" + FeedToken.encode(EXPIRED) + "\"}");

    assertThat(management.status()).isEqualTo(410);
    assertThat(management.detail()).contains("retention");
    assertThat(iceberg.status()).isEqualTo(410);
    assertThat(iceberg.icebergError().path("message").asText()).contains("retention");
  }

  @Test
  void theIcebergFeedAnswersTheProposalsShape() {
    Answer answer = slice.post(ICEBERG, MEMBER, "{}");

    assertThat(answer.status()).isEqualTo(200);
    assertThat(answer.json().path("continuation-token").asText())
        .isEqualTo(FeedToken.encode(FIRST));
    assertThat(answer.json().path("highest-processed-timestamp-ms").asLong())
        .isEqualTo(AT.toEpochMilli());
    var event = answer.json().path("events").get(0);
    assertThat(event.path("identifier").path("namespace").toString()).isEqualTo("[\"sales\"]");
    assertThat(event.path("identifier").path("name").asText()).isEqualTo("orders");
    assertThat(event.path("actor").path("principal-name").asText()).isEqualTo("max");
    assertThat(FEED.after).isEqualTo(FeedPosition.START);
    assertThat(FEED.filter.targetKinds()).containsExactlyInAnyOrder("namespace", "table", "view");
  }

  @Test
  void theIcebergFiltersReachTheUseCaseAndAPageSizeIsCapped() {
    Answer answer = slice.post(ICEBERG, MEMBER, "{\"page-size\":100000,"
        + "\"object-types\":[\"table\"],\"catalog-objects-by-name\":[[\"sales\"],[\"hr\",\"pay\"]],"
        + "\"after-timestamp-ms\":" + AT.toEpochMilli() + "}");

    assertThat(answer.status()).isEqualTo(200);
    assertThat(FEED.limit).isEqualTo(ReadChangeEventsUseCase.MAX_LIMIT);
    assertThat(FEED.filter.targetKinds()).containsExactly("table");
    assertThat(FEED.filter.namespaces()).containsExactly("sales");
    assertThat(FEED.filter.objects()).containsExactly("hr.pay");
    assertThat(FEED.filter.since()).contains(AT);
  }

  @Test
  void malformedIcebergBodiesAre400InTheIcebergModelAndReachNoUseCase() {
    List<String> bodies = List.of("", "{", "not json", "[]", "{\"page-size\":0}",
        "{\"page-size\":\"ten\"}", "{\"after-timestamp-ms\":-1}",
        "{\"operation-types\":[\"explode\"]}", "{\"object-types\":[\"bucket\"]}",
        "{\"catalog-objects-by-name\":[[]]}", "{\"catalog-objects-by-name\":[[\"a\",\"b\",\"c\"]]}",
        "{\"catalog-objects-by-name\":[[\"nul\\u0000\"]]}",
        "{\"catalog-objects-by-id\":[\"x\"]}", "{\"custom-filters\":{\"a\":1}}",
        "{\"continuation-token\":\"not-a-token\"}");

    for (String body : bodies) {
      Answer answer = slice.post(ICEBERG, MEMBER, body);
      assertThat(answer.status()).as(body).isEqualTo(400);
      assertThat(answer.icebergError().path("type").asText()).as(body)
          .isEqualTo("BadRequestException");
    }
    assertThat(CALLS.all()).doesNotContain("ReadChangeEvents.read");
  }

  @Test
  void garbageInThePathIs400() {
    for (Answer answer : List.of(slice.raw("GET", "/orgs/acme/events?after=%ZZ", MEMBER),
        slice.raw("GET", "/orgs/a%00b/events", MEMBER))) {
      assertThat(answer.status()).as(answer.toString()).isEqualTo(400);
    }
    assertThat(CALLS.all()).doesNotContain("ReadChangeEvents.read");
  }
}
