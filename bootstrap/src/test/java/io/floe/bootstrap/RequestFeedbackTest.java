package io.floe.bootstrap;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.floe.application.service.catalog.CatalogCommitter;
import io.floe.bootstrap.cli.FloeVersion;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;

/**
 * What Floe tells people about their requests: the request id (given or made) in the response and
 * in every log line of the request, one access-log line per request, the outcome of each commit,
 * the way to the catalog for a client pointed at the wrong path, and which build is running.
 */
@FloeServerTest
class RequestFeedbackTest {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final HttpClient HTTP = HttpClient.newHttpClient();

  private static TestFloe floe;
  private static TestFloe.Org org;

  /** What the loggers under test wrote; appended to by server threads. */
  private final ListAppender<ILoggingEvent> logged = new ListAppender<>();

  @BeforeAll
  static void start(TestFloe shared) {
    floe = shared;
    org = floe.newOrg();
  }

  @BeforeEach
  void listen() {
    logged.start();
    for (String name : List.of("io.floe.access", CatalogCommitter.class.getName())) {
      Logger logger = (Logger) LoggerFactory.getLogger(name);
      logger.setLevel(Level.INFO);
      logger.addAppender(logged);
    }
  }

  @AfterEach
  void stopListening() {
    for (String name : List.of("io.floe.access", CatalogCommitter.class.getName())) {
      ((Logger) LoggerFactory.getLogger(name)).detachAppender(logged);
    }
  }

  @Test
  void aSaneRequestIdIsKeptAndEchoedAndAnyOtherIsReplaced() throws Exception {
    HttpResponse<String> given = send(request("/orgs/" + org.warehouse() + "/buckets")
        .header("X-Request-Id", "job-42.step:7").GET());
    assertThat(given.headers().firstValue("X-Request-Id")).hasValue("job-42.step:7");

    HttpResponse<String> hostile = send(request("/orgs/" + org.warehouse() + "/buckets")
        .header("X-Request-Id", "x\" forged=1 " + "a".repeat(200)).GET());
    String replaced = hostile.headers().firstValue("X-Request-Id").orElseThrow();
    assertThat(replaced).matches("[0-9a-f-]{36}");

    HttpResponse<String> none = send(request("/health").GET());
    assertThat(none.headers().firstValue("X-Request-Id").orElseThrow())
        .matches("[0-9a-f-]{36}").isNotEqualTo(replaced);
  }

  @Test
  void eachRequestLogsOneAccessLineWithRouteStatusAndPrincipal() throws Exception {
    send(request("/orgs/" + org.warehouse() + "/buckets").header("X-Request-Id", "listing-1")
        .GET());
    send(HttpRequest.newBuilder(uri("/orgs/" + org.warehouse() + "/buckets"))
        .header("X-Request-Id", "anonymous-1").GET().build());

    // The line is written once the response is out: wait for it.
    await().untilAsserted(() -> {
      ILoggingEvent listing = only(accessLines("listing-1"));
      assertThat(listing.getLevel()).isEqualTo(Level.INFO);
      assertThat(listing.getFormattedMessage())
          .matches("GET /orgs/\\{org}/buckets 200 \\d+ms principal=[0-9a-f-]{36}");
      assertThat(only(accessLines("anonymous-1")).getFormattedMessage())
          .matches("GET /orgs/\\{org}/buckets 401 \\d+ms principal=-");
    });
  }

  @Test
  void aCommitLogsItsOutcomeUnderTheRequestsId() throws Exception {
    String warehouse = org.warehouse();
    send(request("/iceberg/v1/" + warehouse + "/namespaces")
        .POST(body(Map.of("namespace", List.of("logged")))));
    HttpResponse<String> created = send(request("/iceberg/v1/" + warehouse
        + "/namespaces/logged/tables").POST(body(Map.of("name", "events", "schema", Map.of(
            "type", "struct", "schema-id", 0, "fields", List.of(Map.of(
                "id", 1, "name", "id", "required", false, "type", "long")))))));
    assertThat(created.statusCode()).as(created.body()).isEqualTo(200);
    String uuid = JSON.readTree(created.body()).path("metadata").path("table-uuid").asText();

    HttpResponse<String> committed = send(request("/iceberg/v1/" + warehouse
        + "/namespaces/logged/tables/events").header("X-Request-Id", "commit-1")
        .POST(body(Map.of("requirements", List.of(Map.of("type", "assert-table-uuid", "uuid",
            uuid)), "updates", List.of(Map.of("action", "set-properties", "updates",
                Map.of("owner", "feedback")))))));
    assertThat(committed.statusCode()).as(committed.body()).isEqualTo(200);
    HttpResponse<String> refused = send(request("/iceberg/v1/" + warehouse
        + "/namespaces/logged/tables/events").header("X-Request-Id", "commit-2")
        .POST(body(Map.of("requirements", List.of(Map.of("type", "assert-table-uuid", "uuid",
            "00000000-0000-0000-0000-000000000000")), "updates", List.of()))));
    assertThat(refused.statusCode()).isEqualTo(409);

    assertThat(only(commitLines("commit-1")).getFormattedMessage())
        .isEqualTo("commit of table logged.events: committed after 1 attempt(s)");
    assertThat(only(commitLines("commit-2")).getFormattedMessage())
        .startsWith("commit of table logged.events: conflict after 1 attempt(s): ");
    await().untilAsserted(() -> assertThat(only(accessLines("commit-2")).getFormattedMessage())
        .startsWith("POST /iceberg/v1/{prefix}/namespaces/{namespace}/tables/{table} 409 "));
  }

  @Test
  void aCatalogUriWithoutIcebergIsToldWhereTheCatalogIs() throws Exception {
    HttpResponse<String> response = send(request("/v1/config?warehouse=" + org.warehouse())
        .GET());
    assertThat(response.statusCode()).isEqualTo(404);
    JsonNode error = JSON.readTree(response.body()).path("error");
    assertThat(error.path("message").asText()).contains("use http://127.0.0.1:"
        + floe.server().port() + "/iceberg as the catalog URI");
    // A wrong path under the catalog is just not found.
    assertThat(send(request("/iceberg/v1/" + org.warehouse() + "/nothing").GET()).body())
        .doesNotContain("catalog URI");
  }

  @Test
  void theServerSaysWhichBuildItIsAndWhereTheCatalogIs() throws Exception {
    JsonNode root = JSON.readTree(send(HttpRequest.newBuilder(uri("/")).GET().build()).body());
    FloeVersion.Build build = FloeVersion.build();
    assertThat(root.path("version").asText()).isEqualTo(build.describe());
    assertThat(root.path("iceberg_catalog_uri").asText()).isEqualTo(floe.uri());
    // The build filled in its version and time; the commit is known in a git checkout.
    assertThat(build.version()).matches("\\d+\\.\\d+\\.\\d+.*");
    assertThat(build.builtAt()).matches("\\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d:\\d\\dZ");
    assertThat(build.commit()).matches("[0-9a-f]{7,}|unknown");
    assertThat(new FloeVersion().getVersion()).containsExactly("floe " + build.version(),
        "commit " + build.commit(), "built " + build.builtAt());
  }

  @Test
  void aBrowserAtTheRootIsSentToTheWebApp() throws Exception {
    HttpResponse<String> browser = send(HttpRequest.newBuilder(uri("/")).header("Accept",
        "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8").GET().build());
    assertThat(browser.statusCode()).isEqualTo(303);
    assertThat(browser.headers().firstValue("Location")).contains("/ui");
    // A program asking for anything, or for JSON, gets the description of the server.
    for (String accept : List.of("*/*", "application/json", "text/htmlx")) {
      HttpResponse<String> program = send(HttpRequest.newBuilder(uri("/"))
          .header("Accept", accept).GET().build());
      assertThat(program.statusCode()).as(accept).isEqualTo(200);
      assertThat(JSON.readTree(program.body()).path("service").asText()).isEqualTo("floe");
    }
  }

  private List<ILoggingEvent> accessLines(String requestId) {
    return List.copyOf(logged.list).stream().filter(e -> e.getLoggerName().equals("io.floe.access"))
        .filter(e -> requestId.equals(e.getMDCPropertyMap().get("request_id"))).toList();
  }

  private List<ILoggingEvent> commitLines(String requestId) {
    return List.copyOf(logged.list).stream().filter(e -> e.getLoggerName().equals(CatalogCommitter.class.getName()))
        .filter(e -> requestId.equals(e.getMDCPropertyMap().get("request_id"))).toList();
  }

  private static ILoggingEvent only(List<ILoggingEvent> events) {
    assertThat(events).hasSize(1);
    return events.get(0);
  }

  private static HttpRequest.Builder request(String path) {
    return HttpRequest.newBuilder(uri(path)).header("Authorization", "Bearer " + org.token());
  }

  private static HttpRequest.BodyPublisher body(Object value) throws Exception {
    return HttpRequest.BodyPublishers.ofString(JSON.writeValueAsString(value));
  }

  private static HttpResponse<String> send(HttpRequest.Builder request) throws Exception {
    return send(request.build());
  }

  private static HttpResponse<String> send(HttpRequest request) throws Exception {
    return HTTP.send(request, HttpResponse.BodyHandlers.ofString());
  }

  private static URI uri(String path) {
    return URI.create("http://127.0.0.1:" + floe.server().port() + path);
  }

}
