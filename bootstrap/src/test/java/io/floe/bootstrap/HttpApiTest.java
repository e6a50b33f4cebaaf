package io.floe.bootstrap;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** The HTTP surface as any client sees it: health, auth, config, errors in the Iceberg model. */
@FloeServerTest
class HttpApiTest {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final HttpClient HTTP = HttpClient.newHttpClient();

  private static TestFloe floe;
  private static TestFloe.Org org;

  @BeforeAll
  static void start(TestFloe shared) {
    floe = shared;
    org = floe.newOrg();
  }

  @Test
  void healthAndReadinessAnswerWithoutAToken() throws Exception {
    assertThat(send(get("/health")).statusCode()).isEqualTo(200);
    HttpResponse<String> ready = send(get("/ready"));
    assertThat(ready.statusCode()).isEqualTo(200);
    assertThat(ready.body()).contains("ready");
  }

  @Test
  void metricsAnswerWithoutATokenAndNameRouteTemplatesOnly() throws Exception {
    String namespace = "metrics_" + System.nanoTime();
    assertThat(send(post("/iceberg/v1/" + org.warehouse() + "/namespaces",
        "{\"namespace\": [\"" + namespace + "\"]}")).statusCode()).isEqualTo(200);
    for (int i = 0; i < 2; i++) {
      assertThat(send(get("/iceberg/v1/" + org.warehouse() + "/namespaces/" + namespace,
          org.token())).statusCode()).isEqualTo(200);
    }
    HttpResponse<String> metrics = send(get("/metrics"));
    assertThat(metrics.statusCode()).isEqualTo(200);
    assertThat(metrics.headers().firstValue("Content-Type")).hasValueSatisfying(type ->
        assertThat(type).startsWith("text/plain"));
    assertThat(metrics.body())
        .contains("http_server_requests_seconds_count{method=\"GET\",route=\"/iceberg/v1/"
            + "{prefix}/namespaces/{namespace}\",status=\"200\"}")
        .contains("cache=\"tokens\"")
        .contains("hikaricp_connections")
        .contains("floe_db_statements_total")
        .doesNotContain(namespace)
        .doesNotContain(org.warehouse());
  }

  @Test
  void theCatalogNeedsAValidBearerToken() throws Exception {
    assertError(send(get("/iceberg/v1/config?warehouse=" + org.warehouse())), 401,
        "NotAuthorizedException");
    assertError(send(get("/iceberg/v1/config?warehouse=" + org.warehouse(), "ema_" + "0".repeat(64))),
        401, "NotAuthorizedException");
    assertError(send(get("/iceberg/v1/" + org.warehouse() + "/namespaces", "not-even-a-token")),
        401, "NotAuthorizedException");
  }

  @Test
  void anUnknownWarehouseAndAnotherOrgsWarehouseLookTheSame() throws Exception {
    TestFloe.Org other = floe.newOrg();
    HttpResponse<String> unknown = send(get("/iceberg/v1/config?warehouse=nope", org.token()));
    HttpResponse<String> foreign =
        send(get("/iceberg/v1/config?warehouse=" + other.warehouse(), org.token()));
    assertError(unknown, 404, "NoSuchWarehouseException");
    assertError(foreign, 404, "NoSuchWarehouseException");
    assertError(send(get("/iceberg/v1/" + other.warehouse() + "/namespaces", org.token())), 404,
        "NoSuchWarehouseException");
  }

  @Test
  void nestedNamespacesAreRefusedWithAMessageThatSaysWhy() throws Exception {
    HttpResponse<String> response = send(post("/iceberg/v1/" + org.warehouse() + "/namespaces",
        "{\"namespace\":[\"a\",\"b\"]}"));
    assertError(response, 400, "BadRequestException");
    assertThat(response.body()).contains("Namespaces are flat");
  }

  @Test
  void aNameThatCannotExistDoesNotExistButCreatingItIsA400NamingTheRule() throws Exception {
    String base = "/iceberg/v1/" + org.warehouse() + "/namespaces/";
    for (String path : new String[] {"TEST%20NS", "TEST%20NS/tables/t", "TEST%20NS/views/v"}) {
      HttpResponse<String> head = send(HttpRequest.newBuilder(uri(base + path))
          .header("Authorization", "Bearer " + org.token())
          .method("HEAD", HttpRequest.BodyPublishers.noBody()).build());
      assertThat(head.statusCode()).as(path).isEqualTo(404);
    }
    assertError(send(get(base + "TEST%20NS", org.token())), 404, "NoSuchNamespaceException");
    HttpResponse<String> created = send(post("/iceberg/v1/" + org.warehouse() + "/namespaces",
        "{\"namespace\":[\"TEST NS\"]}"));
    assertError(created, 400, "BadRequestException");
    assertThat(created.body()).contains("use ASCII letters, digits");
  }

  @Test
  void aMissingNamespaceIsAnIcebergNotFound() throws Exception {
    assertError(send(get("/iceberg/v1/" + org.warehouse() + "/namespaces/x", org.token())), 404,
        "NoSuchNamespaceException");
  }

  @Test
  void anIdempotencyKeyReplaysTheFirstResponse() throws Exception {
    String body = "{\"namespace\":[\"idem\"],\"properties\":{\"owner\":\"ci\"}}";
    HttpRequest first = HttpRequest.newBuilder(uri("/iceberg/v1/" + org.warehouse() + "/namespaces"))
        .header("Authorization", "Bearer " + org.token()).header("Idempotency-Key", "k-1")
        .POST(HttpRequest.BodyPublishers.ofString(body)).build();
    HttpResponse<String> created = send(first);
    HttpResponse<String> replayed = send(first);
    assertThat(created.statusCode()).isEqualTo(200);
    assertThat(replayed.statusCode()).isEqualTo(200);
    assertThat(replayed.body()).isEqualTo(created.body());
    // Without the key the same request is a conflict: the namespace exists once.
    assertError(send(post("/iceberg/v1/" + org.warehouse() + "/namespaces", body)), 409,
        "AlreadyExistsException");
  }

  private static void assertError(HttpResponse<String> response, int status, String type)
      throws IOException {
    assertThat(response.statusCode()).as(response.body()).isEqualTo(status);
    JsonNode error = JSON.readTree(response.body()).path("error");
    assertThat(error.path("code").asInt()).isEqualTo(status);
    assertThat(error.path("type").asText()).isEqualTo(type);
    assertThat(error.path("message").asText()).isNotBlank();
  }

  private static URI uri(String path) {
    return URI.create("http://127.0.0.1:" + floe.server().port() + path);
  }

  private static HttpRequest get(String path) {
    return HttpRequest.newBuilder(uri(path)).GET().build();
  }

  private static HttpRequest get(String path, String token) {
    return HttpRequest.newBuilder(uri(path)).header("Authorization", "Bearer " + token).GET()
        .build();
  }

  private static HttpRequest post(String path, String body) {
    return HttpRequest.newBuilder(uri(path)).header("Authorization", "Bearer " + org.token())
        .POST(HttpRequest.BodyPublishers.ofString(body)).build();
  }

  private static HttpResponse<String> send(HttpRequest request)
      throws IOException, InterruptedException {
    return HTTP.send(request, HttpResponse.BodyHandlers.ofString());
  }
}
