package io.floe.adapters.rest.iceberg;

import static io.floe.adapters.rest.slice.FakeAuthentication.ADMIN;
import static io.floe.adapters.rest.slice.FakeAuthentication.MEMBER;
import static org.assertj.core.api.Assertions.assertThat;

import io.floe.adapters.rest.slice.Calls;
import io.floe.adapters.rest.slice.FakeTables;
import io.floe.adapters.rest.slice.RouteSlice;
import io.floe.adapters.rest.slice.RouteSlice.Answer;
import io.floe.application.model.AccessDelegation;
import java.util.List;
import java.util.Map;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.rest.RESTCatalogProperties.SnapshotMode;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The Iceberg table routes on in-memory tables. */
class TableRoutesSliceTest {
  private static final String NS = "/iceberg/v1/acme/namespaces/sales";
  private static final String SCHEMA = "{\"type\":\"struct\",\"schema-id\":0,\"fields\":"
      + "[{\"id\":1,\"name\":\"id\",\"required\":true,\"type\":\"long\"}]}";
  private static final Calls CALLS = new Calls();
  private static final FakeTables TABLES = new FakeTables(CALLS)
      .with(TableIdentifier.of("sales", "orders"));
  private static RouteSlice slice;

  @BeforeAll
  static void start() {
    slice = RouteSlice.with(CALLS).tables(TABLES.useCases()).start();
  }

  @AfterAll
  static void stop() {
    slice.close();
  }

  @BeforeEach
  void forget() {
    CALLS.clear();
  }

  @Test
  void withoutAValidTokenEveryTableRouteIs401BeforeAnyUseCase() {
    String create = "{\"name\":\"t\",\"schema\":" + SCHEMA + "}";
    List<Answer> answers = List.of(
        slice.get(NS + "/tables", null),
        slice.post(NS + "/tables", null, create),
        slice.post(NS + "/tables", "forged", create),
        slice.get(NS + "/tables/orders", null),
        slice.post(NS + "/tables/orders", null, "{\"requirements\":[],\"updates\":[]}"),
        slice.delete(NS + "/tables/orders?purgeRequested=true", "forged"),
        slice.get(NS + "/tables/orders/credentials", null),
        slice.post(NS + "/tables/orders/sign", null, "{}"),
        slice.post(NS + "/tables/orders/metrics", null, "{}"),
        slice.post(NS + "/register", null, "{\"name\":\"r\",\"metadata-location\":\"s3://x\"}"),
        slice.post("/iceberg/v1/acme/tables/rename", null, "{}"),
        slice.post("/iceberg/v1/acme/transactions/commit", null, "{\"table-changes\":[]}"));

    for (Answer answer : answers) {
      assertThat(answer.status()).as(answer.toString()).isEqualTo(401);
      assertThat(answer.icebergError().path("type").asText())
          .isEqualTo("NotAuthorizedException");
    }
    assertThat(CALLS.all()).containsOnly("Authenticate.authenticate");
    assertThat(TABLES.holds(TableIdentifier.of("sales", "orders"))).isTrue();
  }

  @Test
  void createsATableOnceAndPassesTheAccessDelegationAsked() {
    String body = "{\"name\":\"fresh\",\"schema\":" + SCHEMA + "}";
    Answer created = slice.send("POST", NS + "/tables", MEMBER, body,
        Map.of(AccessDelegation.HEADER, "vended-credentials"));
    var delegation = TABLES.lastDelegation;
    Answer again = slice.post(NS + "/tables", MEMBER, body);

    assertThat(created.status()).isEqualTo(200);
    assertThat(created.json().path("metadata-location").asText())
        .endsWith("/sales/fresh/metadata/1.metadata.json");
    assertThat(delegation).containsExactly(AccessDelegation.VENDED_CREDENTIALS);
    assertThat(again.status()).isEqualTo(409);
    assertThat(again.icebergError().path("type").asText()).isEqualTo("AlreadyExistsException");
  }

  @Test
  void malformedCreateBodiesAre400AndCreateNothing() {
    List<String> bodies = List.of("", "{", "{\"name\":\"x\"}", "{\"schema\":" + SCHEMA + "}",
        "{\"name\":\"x\",\"schema\":{\"type\":\"struct\",\"fields\":[{\"id\":1}]}}",
        "{\"name\":\"x\",\"schema\":" + SCHEMA + "} []",
        "{\"name\":\"x\\u0000y\",\"schema\":" + SCHEMA + "}");

    for (String body : bodies) {
      Answer answer = slice.post(NS + "/tables", MEMBER, body);
      assertThat(answer.status()).as(body).isEqualTo(400);
      assertThat(answer.icebergError().path("type").asText()).isEqualTo("BadRequestException");
    }
    assertThat(CALLS.all()).doesNotContain("Tables.createTable");
  }

  @Test
  void loadAnswersWithAnETagAndA304WhileTheTableHasNotMoved() {
    Answer loaded = slice.get(NS + "/tables/orders", MEMBER);
    String etag = loaded.header("ETag").orElseThrow();
    CALLS.clear();

    Answer unchanged = slice.send("GET", NS + "/tables/orders", MEMBER, null,
        Map.of("If-None-Match", "W/" + etag));
    Answer anyVersion = slice.send("GET", NS + "/tables/orders", MEMBER, null,
        Map.of("If-None-Match", "*"));
    Answer stale = slice.send("GET", NS + "/tables/orders", MEMBER, null,
        Map.of("If-None-Match", "\"older\""));

    assertThat(loaded.status()).isEqualTo(200);
    assertThat(loaded.json().path("metadata-location").asText())
        .isEqualTo(TABLES.metadataLocation(TableIdentifier.of("sales", "orders")));
    assertThat(unchanged.status()).isEqualTo(304);
    assertThat(unchanged.body()).isEmpty();
    assertThat(unchanged.header("ETag")).contains(etag);
    assertThat(anyVersion.status()).isEqualTo(304);
    assertThat(stale.status()).isEqualTo(200);
    assertThat(CALLS.all()).containsOnlyOnce("Tables.loadTable");
  }

  @Test
  void theSnapshotsParameterIsReadOrRefused() {
    Answer refs = slice.get(NS + "/tables/orders?snapshots=refs", MEMBER);
    SnapshotMode asked = TABLES.lastMode;
    Answer all = slice.get(NS + "/tables/orders", MEMBER);
    CALLS.clear();
    Answer bogus = slice.get(NS + "/tables/orders?snapshots=some", MEMBER);

    assertThat(refs.status()).isEqualTo(200);
    assertThat(asked).isEqualTo(SnapshotMode.REFS);
    assertThat(refs.header("ETag")).isNotEqualTo(all.header("ETag"));
    assertThat(bogus.status()).isEqualTo(400);
    assertThat(bogus.icebergError().path("message").asText()).contains("snapshots");
    assertThat(CALLS.all()).doesNotContain("Tables.loadTable");
  }

  @Test
  void aMissingTableIs404OnEveryRouteThatNamesIt() {
    List<Answer> answers = List.of(
        slice.get(NS + "/tables/missing", MEMBER),
        slice.post(NS + "/tables/missing", MEMBER, "{\"requirements\":[],\"updates\":[]}"),
        slice.delete(NS + "/tables/missing", ADMIN),
        slice.get(NS + "/tables/missing/credentials", MEMBER),
        slice.post("/iceberg/v1/acme/tables/rename", ADMIN, "{\"source\":{\"namespace\":"
            + "[\"sales\"],\"name\":\"missing\"},\"destination\":{\"namespace\":[\"sales\"],"
            + "\"name\":\"other\"}}"));

    for (Answer answer : answers) {
      assertThat(answer.status()).as(answer.toString()).isEqualTo(404);
      assertThat(answer.icebergError().path("type").asText()).isEqualTo("NoSuchTableException");
    }
    Answer head = slice.head(NS + "/tables/missing", MEMBER);
    assertThat(head.status()).isEqualTo(404);
    assertThat(head.body()).isEmpty();
  }

  @Test
  void aCommitWhoseRequirementFailsIs409AndOneThatHoldsMovesTheTable() {
    TableIdentifier id = TableIdentifier.of("sales", "committed");
    TABLES.with(id);
    String before = TABLES.metadataLocation(id);

    Answer conflict = slice.post(NS + "/tables/committed", MEMBER, "{\"requirements\":[{\"type\":"
        + "\"assert-table-uuid\",\"uuid\":\"00000000-0000-0000-0000-000000000000\"}],"
        + "\"updates\":[]}");
    Answer committed = slice.post(NS + "/tables/committed", MEMBER,
        "{\"requirements\":[],\"updates\":[{\"action\":\"set-properties\","
            + "\"updates\":{\"k\":\"v\"}}]}");

    assertThat(conflict.status()).isEqualTo(409);
    assertThat(conflict.icebergError().path("type").asText()).isEqualTo("CommitFailedException");
    assertThat(committed.status()).isEqualTo(200);
    assertThat(committed.json().path("metadata-location").asText()).isNotEqualTo(before)
        .isEqualTo(TABLES.metadataLocation(id));
  }

  @Test
  void anUnknownUpdateActionIs400BeforeTheCommit() {
    Answer answer = slice.post(NS + "/tables/orders", MEMBER,
        "{\"requirements\":[],\"updates\":[{\"action\":\"rewrite-everything\"}]}");

    assertThat(answer.status()).isEqualTo(400);
    assertThat(answer.icebergError().path("type").asText()).isEqualTo("BadRequestException");
    assertThat(CALLS.all()).doesNotContain("Tables.commitTable");
  }

  @Test
  void dropPassesThePurgeFlagAndKeepsTheUseCasesRefusal() {
    TableIdentifier id = TableIdentifier.of("sales", "dropped");
    TABLES.with(id);

    Answer refused = slice.delete(NS + "/tables/dropped?purgeRequested=true", MEMBER);
    assertThat(refused.status()).isEqualTo(403);
    assertThat(refused.icebergError().path("type").asText()).isEqualTo("ForbiddenException");
    assertThat(TABLES.holds(id)).isTrue();

    Answer dropped = slice.delete(NS + "/tables/dropped?purgeRequested=true", ADMIN);
    assertThat(dropped.status()).isEqualTo(204);
    assertThat(TABLES.lastPurgeRequested).isTrue();
    assertThat(TABLES.holds(id)).isFalse();
  }

  @Test
  void renameRegisterSignAndMetricsAnswerAsTheProtocolSays() {
    TABLES.with(TableIdentifier.of("sales", "before"));
    Answer renamed = slice.post("/iceberg/v1/acme/tables/rename", ADMIN, "{\"source\":"
        + "{\"namespace\":[\"sales\"],\"name\":\"before\"},\"destination\":{\"namespace\":"
        + "[\"sales\"],\"name\":\"after\"}}");
    Answer registered = slice.post(NS + "/register", ADMIN,
        "{\"name\":\"registered\",\"metadata-location\":\"s3://data/x/1.metadata.json\"}");
    Answer signed = slice.post(NS + "/tables/orders/sign", MEMBER, "{\"region\":\"us-east-1\","
        + "\"uri\":\"https://data.s3.amazonaws.com/sales/orders/f.parquet\",\"method\":\"GET\","
        + "\"headers\":{}}");
    Answer metrics = slice.post(NS + "/tables/orders/metrics", MEMBER, "{\"report-type\":"
        + "\"scan-report\",\"table-name\":\"sales.orders\",\"snapshot-id\":1,\"filter\":true,"
        + "\"schema-id\":0,\"projected-field-ids\":[1],\"projected-field-names\":[\"id\"],"
        + "\"metrics\":{}}");

    assertThat(renamed.status()).isEqualTo(204);
    assertThat(TABLES.holds(TableIdentifier.of("sales", "after"))).isTrue();
    assertThat(registered.status()).isEqualTo(200);
    assertThat(signed.status()).isEqualTo(200);
    assertThat(signed.json().path("headers").path("Authorization").get(0).asText())
        .isEqualTo("signed");
    assertThat(metrics.status()).as(metrics.toString()).isEqualTo(204);
  }

  @Test
  void malformedBodiesOfTheOtherRoutesReachNoUseCase() {
    List<Answer> answers = List.of(
        slice.post("/iceberg/v1/acme/tables/rename", ADMIN, "{\"source\":\"sales.orders\"}"),
        slice.post(NS + "/register", ADMIN, "{\"name\":\"r\"}"),
        slice.post(NS + "/tables/orders/sign", MEMBER, "{\"uri\":\"not a uri at all\"}"),
        slice.post(NS + "/tables/orders/metrics", MEMBER, "{\"report-type\":\"scan-report\"}"),
        slice.post("/iceberg/v1/acme/transactions/commit", MEMBER, "{\"table-changes\":{}}"));

    for (Answer answer : answers) {
      assertThat(answer.status()).as(answer.toString()).isEqualTo(400);
      assertThat(answer.icebergError().path("type").asText()).isEqualTo("BadRequestException");
    }
    assertThat(CALLS.all()).containsOnly("Authenticate.authenticate", "Authenticate.enterOrg");
  }

  @Test
  void garbageInATableNameIs400BeforeAuthentication() {
    List<Answer> answers = List.of(
        slice.raw("GET", NS + "/tables/or%00ders", MEMBER),
        slice.raw("DELETE", NS + "/tables/%E0%80%80", ADMIN),
        slice.raw("GET", NS + "/tables/%", MEMBER));

    for (Answer answer : answers) {
      assertThat(answer.status()).as(answer.toString()).isEqualTo(400);
      assertThat(answer.icebergError()).isNotNull();
    }
    assertThat(CALLS.all()).isEmpty();
  }
}
