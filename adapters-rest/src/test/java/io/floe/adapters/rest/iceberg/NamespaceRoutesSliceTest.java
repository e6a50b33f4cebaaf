package io.floe.adapters.rest.iceberg;

import static io.floe.adapters.rest.slice.FakeAuthentication.ADMIN;
import static io.floe.adapters.rest.slice.FakeAuthentication.MEMBER;
import static io.floe.adapters.rest.slice.FakeAuthentication.OUTSIDER;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.floe.adapters.rest.slice.Calls;
import io.floe.adapters.rest.slice.FakeIcebergNamespaces;
import io.floe.adapters.rest.slice.RouteSlice;
import io.floe.adapters.rest.slice.RouteSlice.Answer;
import java.io.ByteArrayInputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.List;
import java.util.Map;
import org.apache.iceberg.catalog.Namespace;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.RepeatedTest;
import org.junit.jupiter.api.Test;

/** The Iceberg config and namespace routes on in-memory namespaces. */
class NamespaceRoutesSliceTest {
  private static final String V1 = "/iceberg/v1/acme";
  private static final HttpClient HTTP = HttpClient.newHttpClient();
  private static final Calls CALLS = new Calls();
  private static final FakeIcebergNamespaces NAMESPACES = new FakeIcebergNamespaces(CALLS)
      .with(Namespace.of("sales")).with(Namespace.of("sales", "eu")).with(Namespace.of("busy"));
  private static RouteSlice slice;

  @BeforeAll
  static void start() {
    slice = RouteSlice.with(CALLS).namespaces(NAMESPACES).start();
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
  void configNamesTheOrgAsPrefixAndAdvertisesTheRoutes() {
    Answer answer = slice.get("/iceberg/v1/config?warehouse=acme", MEMBER);

    assertThat(answer.status()).isEqualTo(200);
    assertThat(answer.json().path("overrides").path("prefix").asText()).isEqualTo("acme");
    assertThat(answer.json().path("idempotency-key-lifetime").asText()).isEqualTo("PT30M");
    assertThat(answer.json().path("defaults").isObject()).isTrue();
    assertThat(answer.json().path("endpoints")).hasSize(IcebergRoutes.ENDPOINTS.size());
    assertThat(answer.json().path("endpoints").toString())
        .contains("POST /v1/{prefix}/namespaces/{namespace}/tables/{table}")
        .contains("POST /v1/{prefix}/transactions/commit");
  }

  @Test
  void configWithoutWarehouseIsABadRequest() {
    Answer answer = slice.get("/iceberg/v1/config", MEMBER);

    assertThat(answer.status()).isEqualTo(400);
    assertThat(answer.icebergError().path("type").asText()).isEqualTo("BadRequestException");
    assertThat(answer.icebergError().path("message").asText()).contains("warehouse");
  }

  @Test
  void anOrgTheCallerIsNotInLooksLikeNoOrgAtAll() {
    Answer outsider = slice.get("/iceberg/v1/config?warehouse=acme", OUTSIDER);
    Answer unknown = slice.get("/iceberg/v1/config?warehouse=nowhere", MEMBER);
    Answer prefix = slice.get("/iceberg/v1/nowhere/namespaces", MEMBER);

    for (Answer answer : List.of(outsider, unknown, prefix)) {
      assertThat(answer.status()).isEqualTo(404);
      assertThat(answer.icebergError().path("type").asText())
          .isEqualTo("NoSuchWarehouseException");
    }
    assertThat(CALLS.all()).doesNotContain("IcebergNamespaces.list");
  }

  @Test
  void withoutAValidTokenEveryRouteIs401BeforeAnyUseCase() {
    List<Answer> answers = List.of(
        slice.get("/iceberg/v1/config?warehouse=acme", null),
        slice.get(V1 + "/namespaces", null),
        slice.get(V1 + "/namespaces", "forged"),
        slice.post(V1 + "/namespaces", null, "{\"namespace\":[\"new\"]}"),
        slice.post(V1 + "/namespaces", "forged", "{\"namespace\":[\"new\"]}"),
        slice.send("POST", V1 + "/namespaces", null, "{\"namespace\":[\"new\"]}",
            Map.of("Authorization", "Basic YWRhOmFkYQ==")),
        slice.delete(V1 + "/namespaces/sales", null),
        slice.post(V1 + "/namespaces/sales/properties", null, "{\"updates\":{\"a\":\"b\"}}"));

    for (Answer answer : answers) {
      assertThat(answer.status()).as(answer.toString()).isEqualTo(401);
      assertThat(answer.icebergError().path("type").asText())
          .isEqualTo("NotAuthorizedException");
    }
    assertThat(CALLS.all()).containsOnly("Authenticate.authenticate");
    assertThat(NAMESPACES.holds(Namespace.of("new"))).isFalse();
  }

  @Test
  void listsTheChildrenOfTheParentItIsGiven() {
    Answer top = slice.get(V1 + "/namespaces", MEMBER);
    Answer children = slice.get(V1 + "/namespaces?parent=sales", MEMBER);

    assertThat(top.status()).isEqualTo(200);
    assertThat(top.json().path("namespaces").toString())
        .isEqualTo("[[\"sales\"],[\"busy\"]]");
    assertThat(children.json().path("namespaces").toString()).isEqualTo("[[\"sales\",\"eu\"]]");
  }

  @Test
  void aPageSizeThatIsNoNumberIsRefusedBeforeTheUseCase() {
    Answer answer = slice.get(V1 + "/namespaces?pageSize=ten", MEMBER);

    assertThat(answer.status()).isEqualTo(400);
    assertThat(answer.icebergError().path("message").asText()).contains("pageSize");
    assertThat(CALLS.all()).doesNotContain("IcebergNamespaces.list");
  }

  @Test
  void createsLoadsAndDropsANamespace() {
    Answer created = slice.post(V1 + "/namespaces", ADMIN,
        "{\"namespace\":[\"made\"],\"properties\":{\"owner\":\"ada\"}}");
    Answer loaded = slice.get(V1 + "/namespaces/made", MEMBER);
    Answer exists = slice.head(V1 + "/namespaces/made", MEMBER);
    Answer dropped = slice.delete(V1 + "/namespaces/made", ADMIN);
    Answer gone = slice.head(V1 + "/namespaces/made", MEMBER);

    assertThat(created.status()).isEqualTo(200);
    assertThat(created.json().path("namespace").toString()).isEqualTo("[\"made\"]");
    assertThat(loaded.json().path("properties").path("owner").asText()).isEqualTo("ada");
    assertThat(exists.status()).isEqualTo(204);
    assertThat(dropped.status()).isEqualTo(204);
    assertThat(gone.status()).isEqualTo(404);
    assertThat(gone.body()).isEmpty();
  }

  @Test
  void theUseCasesRefusalsKeepTheirIcebergErrorTypes() {
    Answer member = slice.post(V1 + "/namespaces", MEMBER, "{\"namespace\":[\"mine\"]}");
    Answer twice = slice.post(V1 + "/namespaces", ADMIN, "{\"namespace\":[\"sales\"]}");
    Answer missing = slice.get(V1 + "/namespaces/nothing", MEMBER);
    Answer busy = slice.delete(V1 + "/namespaces/busy", ADMIN);

    assertThat(member.status()).isEqualTo(403);
    assertThat(member.icebergError().path("type").asText()).isEqualTo("ForbiddenException");
    assertThat(twice.status()).isEqualTo(409);
    assertThat(twice.icebergError().path("type").asText()).isEqualTo("AlreadyExistsException");
    assertThat(missing.status()).isEqualTo(404);
    assertThat(missing.icebergError().path("type").asText())
        .isEqualTo("NoSuchNamespaceException");
    assertThat(busy.status()).isEqualTo(409);
    assertThat(busy.icebergError().path("type").asText())
        .isEqualTo("NamespaceNotEmptyException");
    assertThat(NAMESPACES.holds(Namespace.of("mine"))).isFalse();
  }

  @Test
  void aMultiLevelNamespaceIsDecodedWithIcebergsSeparator() {
    Answer answer = slice.get(V1 + "/namespaces/sales%1Feu", MEMBER);

    assertThat(answer.status()).isEqualTo(200);
    assertThat(answer.json().path("namespace").toString()).isEqualTo("[\"sales\",\"eu\"]");
  }

  @Test
  void malformedBodiesAre400AndReachNoUseCase() {
    List<String> bodies = List.of("", "{", "not json", "{not json", "[]", "{\"namespace\":\"flat\"}",
        "{\"namespace\":[\"a\"]} {\"namespace\":[\"b\"]}",
        "{\"namespace\":[\"nul\\u0000\"]}", "{\"namespace\":[\"a\"],\"properties\":{\"k\":1}}");

    for (String body : bodies) {
      Answer answer = slice.post(V1 + "/namespaces", ADMIN, body);
      assertThat(answer.status()).as(body).isEqualTo(400);
      assertThat(answer.icebergError().path("type").asText()).isEqualTo("BadRequestException");
    }
    assertThat(CALLS.all()).doesNotContain("IcebergNamespaces.create");
  }

  @Test
  void anOversizedBodyIs413AndReachesNoUseCase() {
    Answer answer = slice.post(V1 + "/namespaces", ADMIN, RouteSlice.oversized(9 * 1024 * 1024));

    assertThat(answer.status()).isEqualTo(413);
    assertThat(answer.icebergError()).isNotNull();
    assertThat(CALLS.all()).doesNotContain("IcebergNamespaces.create");
  }

  /** However the client frames a body too large, it reads the 413 and nothing is created. */
  @RepeatedTest(10)
  void anOversizedBodyIsRefusedWithA413TheClientReadsWhateverItsFraming() throws Exception {
    byte[] huge = new byte[9 * 1024 * 1024];
    URI uri = URI.create("http://127.0.0.1:" + slice.port() + V1 + "/namespaces");
    HttpRequest announced = HttpRequest.newBuilder(uri)
        .header("Authorization", "Bearer " + ADMIN)
        .POST(HttpRequest.BodyPublishers.ofByteArray(huge)).build();
    // Without a length the client sends it chunked; the server learns the size as it reads.
    HttpRequest chunked = HttpRequest.newBuilder(uri)
        .header("Authorization", "Bearer " + ADMIN)
        .POST(HttpRequest.BodyPublishers.ofInputStream(() -> new ByteArrayInputStream(huge)))
        .build();
    for (HttpRequest request : List.of(announced, chunked)) {
      HttpResponse<String> refused = HTTP.send(request, HttpResponse.BodyHandlers.ofString());
      assertThat(refused.statusCode()).isEqualTo(413);
      assertThat(new ObjectMapper().readTree(refused.body()).path("error").path("code").asInt())
          .isEqualTo(413);
    }
    assertThat(CALLS.all()).doesNotContain("IcebergNamespaces.create");
  }

  @Test
  void garbageInThePathIs400BeforeAuthentication() {
    List<Answer> answers = List.of(
        slice.raw("GET", V1 + "/namespaces/a%00b", ADMIN),
        slice.raw("GET", V1 + "/namespaces/%ZZ", ADMIN),
        slice.raw("GET", V1 + "/namespaces/%C3%28", ADMIN),
        slice.raw("GET", V1 + "/namespaces?parent=%00", ADMIN));

    for (Answer answer : answers) {
      assertThat(answer.status()).as(answer.toString()).isEqualTo(400);
      assertThat(answer.icebergError().path("type").asText()).isEqualTo("BadRequestException");
    }
    assertThat(CALLS.all()).isEmpty();
  }

  @Test
  void anIdempotencyKeyReachesTheUseCaseBoundToMethodPathAndBody() {
    String body = "{\"namespace\":[\"keyed\"]}";
    slice.send("POST", V1 + "/namespaces", ADMIN, body, Map.of("Idempotency-Key", "k-1"));
    var first = NAMESPACES.lastScope.request().idempotencyKey().orElseThrow();
    slice.send("POST", V1 + "/namespaces", ADMIN, "{\"namespace\":[\"other\"]}",
        Map.of("Idempotency-Key", "k-1"));
    var second = NAMESPACES.lastScope.request().idempotencyKey().orElseThrow();

    assertThat(first.key()).isEqualTo("k-1");
    assertThat(first.requestFingerprint()).startsWith("POST /iceberg/v1/acme/namespaces ");
    assertThat(second.requestFingerprint()).isNotEqualTo(first.requestFingerprint());
  }

  @Test
  void anUnknownRouteIsAnIcebergNotFound() {
    Answer answer = slice.get(V1 + "/nothing-here", MEMBER);

    assertThat(answer.status()).isEqualTo(404);
    assertThat(answer.icebergError().path("type").asText()).isEqualTo("NotFoundException");
  }
}
