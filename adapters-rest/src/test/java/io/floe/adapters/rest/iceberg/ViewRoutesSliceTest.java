package io.floe.adapters.rest.iceberg;

import static io.floe.adapters.rest.slice.FakeAuthentication.ADMIN;
import static io.floe.adapters.rest.slice.FakeAuthentication.MEMBER;
import static org.assertj.core.api.Assertions.assertThat;

import io.floe.adapters.rest.slice.Calls;
import io.floe.adapters.rest.slice.FakeViews;
import io.floe.adapters.rest.slice.RouteSlice;
import io.floe.adapters.rest.slice.RouteSlice.Answer;
import java.util.List;
import org.apache.iceberg.catalog.TableIdentifier;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The Iceberg view routes on in-memory views. */
class ViewRoutesSliceTest {
  private static final String NS = "/iceberg/v1/acme/namespaces/sales";
  private static final String SCHEMA = "{\"type\":\"struct\",\"schema-id\":0,\"fields\":"
      + "[{\"id\":1,\"name\":\"id\",\"required\":true,\"type\":\"long\"}]}";
  private static final String VERSION = "{\"version-id\":1,\"schema-id\":0,\"timestamp-ms\":1000,"
      + "\"summary\":{\"operation\":\"create\"},\"default-namespace\":[\"sales\"],"
      + "\"representations\":[{\"type\":\"sql\",\"sql\":\"select 1\",\"dialect\":\"spark\"}]}";
  private static final Calls CALLS = new Calls();
  private static final FakeViews VIEWS = new FakeViews(CALLS)
      .with(TableIdentifier.of("sales", "daily"));
  private static RouteSlice slice;

  @BeforeAll
  static void start() {
    slice = RouteSlice.with(CALLS).views(VIEWS.useCases()).start();
  }

  @AfterAll
  static void stop() {
    slice.close();
  }

  @BeforeEach
  void forget() {
    CALLS.clear();
  }

  private static String create(String name) {
    return "{\"name\":\"" + name + "\",\"schema\":" + SCHEMA + ",\"view-version\":" + VERSION
        + ",\"properties\":{}}";
  }

  @Test
  void withoutAValidTokenEveryViewRouteIs401BeforeAnyUseCase() {
    List<Answer> answers = List.of(
        slice.get(NS + "/views", null),
        slice.post(NS + "/views", null, create("v")),
        slice.post(NS + "/views", "forged", create("v")),
        slice.get(NS + "/views/daily", null),
        slice.head(NS + "/views/daily", "forged"),
        slice.post(NS + "/views/daily", null, "{\"requirements\":[],\"updates\":[]}"),
        slice.delete(NS + "/views/daily", null),
        slice.post(NS + "/register-view", null, "{}"),
        slice.post("/iceberg/v1/acme/views/rename", null, "{}"));

    for (Answer answer : answers) {
      assertThat(answer.status()).as(answer.toString()).isEqualTo(401);
      if (!answer.body().isEmpty()) {
        assertThat(answer.icebergError().path("type").asText())
            .isEqualTo("NotAuthorizedException");
      }
    }
    assertThat(CALLS.all()).containsOnly("Authenticate.authenticate");
    assertThat(VIEWS.holds(TableIdentifier.of("sales", "daily"))).isTrue();
  }

  @Test
  void createsListsLoadsAndDropsAView() {
    Answer created = slice.post(NS + "/views", MEMBER, create("weekly"));
    Answer again = slice.post(NS + "/views", MEMBER, create("weekly"));
    Answer listed = slice.get(NS + "/views", MEMBER);
    Answer loaded = slice.get(NS + "/views/weekly", MEMBER);
    Answer exists = slice.head(NS + "/views/weekly", MEMBER);
    Answer dropped = slice.delete(NS + "/views/weekly", ADMIN);
    Answer gone = slice.get(NS + "/views/weekly", MEMBER);

    assertThat(created.status()).isEqualTo(200);
    assertThat(created.json().path("metadata").path("versions").get(0)
        .path("representations").get(0).path("sql").asText()).isEqualTo("select 1");
    assertThat(again.status()).isEqualTo(409);
    assertThat(again.icebergError().path("type").asText()).isEqualTo("AlreadyExistsException");
    assertThat(listed.json().path("identifiers").toString()).contains("\"weekly\"");
    assertThat(loaded.status()).isEqualTo(200);
    assertThat(exists.status()).isEqualTo(204);
    assertThat(dropped.status()).isEqualTo(204);
    assertThat(gone.status()).isEqualTo(404);
    assertThat(gone.icebergError().path("type").asText()).isEqualTo("NoSuchViewException");
  }

  @Test
  void aMemberCannotDropAndTheViewStays() {
    Answer refused = slice.delete(NS + "/views/daily", MEMBER);

    assertThat(refused.status()).isEqualTo(403);
    assertThat(refused.icebergError().path("type").asText()).isEqualTo("ForbiddenException");
    assertThat(VIEWS.holds(TableIdentifier.of("sales", "daily"))).isTrue();
  }

  @Test
  void replacesAndRenamesAView() {
    VIEWS.with(TableIdentifier.of("sales", "old"));
    Answer replaced = slice.post(NS + "/views/old", MEMBER, "{\"requirements\":[],"
        + "\"updates\":[{\"action\":\"set-properties\",\"updates\":{\"k\":\"v\"}}]}");
    Answer renamed = slice.post("/iceberg/v1/acme/views/rename", ADMIN, "{\"source\":"
        + "{\"namespace\":[\"sales\"],\"name\":\"old\"},\"destination\":{\"namespace\":"
        + "[\"sales\"],\"name\":\"new\"}}");
    Answer missing = slice.post("/iceberg/v1/acme/views/rename", ADMIN, "{\"source\":"
        + "{\"namespace\":[\"sales\"],\"name\":\"old\"},\"destination\":{\"namespace\":"
        + "[\"sales\"],\"name\":\"newer\"}}");

    assertThat(replaced.status()).isEqualTo(200);
    assertThat(replaced.json().path("metadata").path("properties").path("k").asText())
        .isEqualTo("v");
    assertThat(renamed.status()).isEqualTo(204);
    assertThat(VIEWS.holds(TableIdentifier.of("sales", "new"))).isTrue();
    assertThat(missing.status()).isEqualTo(404);
    assertThat(missing.icebergError().path("type").asText()).isEqualTo("NoSuchViewException");
  }

  @Test
  void malformedBodiesAre400AndReachNoUseCase() {
    List<Answer> answers = List.of(
        slice.post(NS + "/views", MEMBER, "{"),
        slice.post(NS + "/views", MEMBER, "{\"name\":\"v\",\"schema\":" + SCHEMA + "}"),
        slice.post(NS + "/views", MEMBER, create("v") + " {}"),
        slice.post(NS + "/views", MEMBER, create("v\\u0000")),
        slice.post(NS + "/views/daily", MEMBER,
            "{\"requirements\":[],\"updates\":[{\"action\":\"no-such-action\"}]}"),
        slice.post(NS + "/register-view", ADMIN, "{\"name\":\"r\"}"),
        slice.post("/iceberg/v1/acme/views/rename", ADMIN, "[]"));

    for (Answer answer : answers) {
      assertThat(answer.status()).as(answer.toString()).isEqualTo(400);
      assertThat(answer.icebergError().path("type").asText()).isEqualTo("BadRequestException");
    }
    assertThat(CALLS.all()).containsOnly("Authenticate.authenticate", "Authenticate.enterOrg");
  }

  @Test
  void garbageInAViewNameIs400BeforeAuthentication() {
    Answer nul = slice.raw("GET", NS + "/views/da%00ily", MEMBER);
    Answer escape = slice.raw("DELETE", NS + "/views/%G1", ADMIN);

    assertThat(nul.status()).isEqualTo(400);
    assertThat(escape.status()).isEqualTo(400);
    assertThat(nul.icebergError()).isNotNull();
    assertThat(CALLS.all()).isEmpty();
  }
}
