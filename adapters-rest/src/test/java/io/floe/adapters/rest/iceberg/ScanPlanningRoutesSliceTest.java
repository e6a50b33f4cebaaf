package io.floe.adapters.rest.iceberg;

import static io.floe.adapters.rest.slice.FakeAuthentication.MEMBER;
import static io.floe.adapters.rest.slice.FakeAuthentication.OUTSIDER;
import static org.assertj.core.api.Assertions.assertThat;

import io.floe.adapters.rest.slice.Calls;
import io.floe.adapters.rest.slice.FakeTables;
import io.floe.adapters.rest.slice.RouteSlice;
import io.floe.adapters.rest.slice.RouteSlice.Answer;
import io.floe.application.model.AccessDelegation;
import java.util.List;
import java.util.Map;
import org.apache.iceberg.catalog.TableIdentifier;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The four scan planning routes on in-memory tables: what each answers and in which shape,
 * 401 before any use case, malformed bodies a 400 that reaches no use case, and the 404s of an
 * unknown table, snapshot, plan id or plan task in the Iceberg error model with its types.
 */
class ScanPlanningRoutesSliceTest {
  private static final String TABLE = "/iceberg/v1/acme/namespaces/sales/tables/orders";
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
  void withoutAValidTokenEveryPlanningRouteIs401BeforeAnyUseCase() {
    List<Answer> answers = List.of(
        slice.post(TABLE + "/plan", null, "{}"),
        slice.post(TABLE + "/plan", "forged", "{}"),
        slice.get(TABLE + "/plan/" + FakeTables.PLAN_ID, null),
        slice.delete(TABLE + "/plan/" + FakeTables.PLAN_ID, "forged"),
        slice.post(TABLE + "/tasks", null, "{\"plan-task\":\"task-1\"}"));

    for (Answer answer : answers) {
      assertThat(answer.status()).as(answer.toString()).isEqualTo(401);
      assertThat(answer.icebergError().path("type").asText())
          .isEqualTo("NotAuthorizedException");
    }
    assertThat(CALLS.all()).containsOnly("Authenticate.authenticate");
  }

  @Test
  void aPlanIsCompletedWithItsPlanTasksAndTheDelegationAskedReachesTheUseCase() {
    Answer plan = slice.send("POST", TABLE + "/plan", MEMBER,
        "{\"filter\":{\"type\":\"eq\",\"term\":\"id\",\"value\":3},\"select\":[\"id\"]}",
        Map.of(AccessDelegation.HEADER, "vended-credentials"));

    assertThat(plan.status()).as(plan.body()).isEqualTo(200);
    assertThat(plan.json().path("status").asText()).isEqualTo("completed");
    assertThat(plan.json().path("plan-id").asText()).isEqualTo(FakeTables.PLAN_ID);
    assertThat(plan.json().path("plan-tasks").get(0).asText()).isEqualTo(FakeTables.PLAN_TASK);
    assertThat(TABLES.lastDelegation).containsExactly(AccessDelegation.VENDED_CREDENTIALS);

    Answer tasks = slice.post(TABLE + "/tasks", MEMBER, "{\"plan-task\":\"task-1\"}");
    assertThat(tasks.status()).as(tasks.body()).isEqualTo(200);
    Answer result = slice.get(TABLE + "/plan/" + FakeTables.PLAN_ID, MEMBER);
    assertThat(result.status()).as(result.body()).isEqualTo(200);
    assertThat(result.json().path("status").asText()).isEqualTo("completed");
    assertThat(slice.delete(TABLE + "/plan/" + FakeTables.PLAN_ID, MEMBER).status())
        .isEqualTo(204);
    assertThat(slice.delete(TABLE + "/plan/unknown", MEMBER).status()).isEqualTo(204);
  }

  @Test
  void unknownColumnsAreA400AndUnknownSnapshotsPlansTasksAndTablesA404() {
    Answer column = slice.post(TABLE + "/plan", MEMBER,
        "{\"filter\":{\"type\":\"eq\",\"term\":\"colour\",\"value\":\"red\"}}");
    assertThat(column.status()).isEqualTo(400);
    assertThat(column.icebergError().path("type").asText()).isEqualTo("ValidationException");

    Answer snapshot = slice.post(TABLE + "/plan", MEMBER, "{\"snapshot-id\":42}");
    assertThat(snapshot.status()).isEqualTo(404);

    Answer plan = slice.get(TABLE + "/plan/other", MEMBER);
    assertThat(plan.status()).isEqualTo(404);
    assertThat(plan.icebergError().path("type").asText()).isEqualTo("NoSuchPlanIdException");

    Answer task = slice.post(TABLE + "/tasks", MEMBER, "{\"plan-task\":\"other\"}");
    assertThat(task.status()).isEqualTo(404);
    assertThat(task.icebergError().path("type").asText()).isEqualTo("NoSuchPlanTaskException");

    Answer table = slice.post("/iceberg/v1/acme/namespaces/sales/tables/nope/plan", MEMBER,
        "{}");
    assertThat(table.status()).isEqualTo(404);
    assertThat(table.icebergError().path("type").asText()).isEqualTo("NoSuchTableException");

    assertThat(slice.post(TABLE + "/plan", OUTSIDER, "{}").status()).isIn(403, 404);
  }

  @Test
  void malformedPlanningBodiesAre400AndReachNoUseCase() {
    List<String> plans = List.of("", "{", "[]", "{\"filter\":{\"type\":\"bogus\"}}",
        "{\"select\":\"id\"}", "{\"snapshot-id\":\"x\"}",
        "{\"snapshot-id\":1,\"start-snapshot-id\":1,\"end-snapshot-id\":2}");
    for (String body : plans) {
      Answer answer = slice.post(TABLE + "/plan", MEMBER, body);
      assertThat(answer.status()).as(body).isEqualTo(400);
      assertThat(answer.icebergError().path("type").asText()).isEqualTo("BadRequestException");
    }
    for (String body : List.of("", "{}", "{\"plan-task\":3}", "{\"plan-task\":null}")) {
      Answer answer = slice.post(TABLE + "/tasks", MEMBER, body);
      assertThat(answer.status()).as(body).isEqualTo(400);
    }
    assertThat(CALLS.all()).doesNotContain("Tables.plan", "Tables.fetchTasks");
  }

  @Test
  void theConfigAdvertisesTheFourPlanningEndpoints() {
    Answer config = slice.get("/iceberg/v1/config?warehouse=acme", MEMBER);
    List<String> endpoints = new java.util.ArrayList<>();
    config.json().path("endpoints").forEach(endpoint -> endpoints.add(endpoint.asText()));
    assertThat(endpoints).contains(
        "POST /v1/{prefix}/namespaces/{namespace}/tables/{table}/plan",
        "GET /v1/{prefix}/namespaces/{namespace}/tables/{table}/plan/{plan-id}",
        "DELETE /v1/{prefix}/namespaces/{namespace}/tables/{table}/plan/{plan-id}",
        "POST /v1/{prefix}/namespaces/{namespace}/tables/{table}/tasks");
  }
}
