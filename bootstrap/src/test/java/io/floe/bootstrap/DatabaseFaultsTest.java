package io.floe.bootstrap;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.floe.adapters.persistence.DatabaseSettings;
import io.floe.adapters.persistence.embedded.EmbeddedPostgresServer;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.awaitility.core.ConditionTimeoutException;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Floe on a real PostgreSQL that stops, restarts and loses connections under it: a request that
 * cannot reach the database before writing is a 503 with {@code Retry-After} in each API's own
 * error format; a commit whose connection ends before it committed is tried again; one whose
 * connection breaks while it commits is looked up and answered with what really happened; only a
 * database that stays away leaves the client with {@code CommitStateUnknownException}.
 *
 * <p>PostgreSQL is an embedded server of the test's own, reached through a {@link PostgresProxy}
 * on loopback, so that it can restart on another port and a connection can break at a chosen
 * moment.
 */
class DatabaseFaultsTest {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final HttpClient HTTP = HttpClient.newBuilder()
      .followRedirects(HttpClient.Redirect.NEVER).connectTimeout(Duration.ofSeconds(5)).build();
  private static final String SCHEMA = """
      {"type": "struct", "schema-id": 0, "fields": [
        {"id": 1, "name": "x", "required": false, "type": "long"}]}""";

  @TempDir static Path directory;
  private static Path cluster;
  private static EmbeddedPostgresServer postgres;
  private static PostgresProxy proxy;
  private static TestFloe floe;
  private static TestFloe.Org org;

  @BeforeAll
  static void start() throws Exception {
    cluster = directory.resolve("postgres");
    postgres = EmbeddedPostgresServer.start(cluster);
    proxy = new PostgresProxy(port(postgres.settings()));
    DatabaseSettings direct = postgres.settings();
    DatabaseSettings proxied = new DatabaseSettings(
        "jdbc:postgresql://127.0.0.1:" + proxy.port() + "/postgres", direct.user(),
        direct.password());
    floe = TestFloe.start(directory.resolve("floe"), settings -> settings
        .database(Optional.of(proxied)).firstCleanupAfter(Duration.ofDays(1)));
    org = floe.newOrg();
    assertThat(send("POST", iceberg("/namespaces"), org.token(),
        "{\"namespace\": [\"faults\"]}").statusCode()).isEqualTo(200);
  }

  @AfterAll
  static void stop() throws Exception {
    floe.close();
    proxy.close();
    postgres.close();
  }

  @Test
  void whilePostgresIsDownEachApiAnswers503WithRetryAfterAndServesAgainOnceItIsBack()
      throws Exception {
    String table = createTable("down");
    postgres.close();
    try {
      // A token the server has never seen: its lookup is the first thing that needs the database.
      // Each request waits for a connection as long as the pool does, so they go together.
      String unseen = "ema_" + UUID.randomUUID().toString().replace("-", "");
      var iceberg = CompletableFuture.supplyAsync(() ->
          send("GET", iceberg("/namespaces"), unseen, null));
      var commit = CompletableFuture.supplyAsync(() ->
          send("POST", table, org.token(), setProperty("during", "outage")));
      var management = CompletableFuture.supplyAsync(() ->
          send("GET", "/orgs/" + org.warehouse() + "/buckets", unseen, null));
      var page = CompletableFuture.supplyAsync(() -> send("GET", "/ui/orgs/" + org.warehouse(),
          null, null, "floe_session=" + UUID.randomUUID()));
      assertUnavailable(iceberg.get(), "\"error\"");
      assertUnavailable(commit.get(), "\"error\"");
      assertUnavailable(management.get(), "\"detail\"");
      assertUnavailable(page.get(), "<html");
      assertThat(send("GET", "/ready", null, null).statusCode()).isEqualTo(503);
      assertThat(send("GET", "/health", null, null).statusCode()).isEqualTo(200);
    } finally {
      restartPostgres();
    }
    HttpResponse<String> served = awaitServed(() -> send("POST", table, org.token(),
        setProperty("after", "outage")));
    assertThat(served.statusCode()).isEqualTo(200);
    JsonNode properties = load(table).path("metadata").path("properties");
    assertThat(properties.path("after").asText()).isEqualTo("outage");
    assertThat(properties.has("during")).as("a 503 wrote nothing").isFalse();
  }

  @Test
  void aCommitWhoseConnectionEndsDuringTheSwapIsTriedAgainAndLandsOnce() throws Exception {
    String table = createTable("swap_cut");
    int versions = metadataVersions(table);
    try (Connection rival = direct()) {
      rival.setAutoCommit(false);
      // Holding the table's row makes the commit's compare-and-swap wait there...
      try (Statement lock = rival.createStatement()) {
        lock.execute("select 1 from catalog_objects where name = 'swap_cut' for update");
      }
      CompletableFuture<HttpResponse<String>> commit = CompletableFuture.supplyAsync(() ->
          send("POST", table, org.token(), setProperty("swap", "cut")));
      // ... where its server process is ended, as an administrator or a failover would.
      int ended = terminateBackendWaitingToSwap(rival);
      assertThat(ended).isPositive();
      rival.rollback();
      HttpResponse<String> answer = commit.get(60, TimeUnit.SECONDS);
      assertThat(answer.statusCode()).as(answer.body()).isEqualTo(200);
    }
    assertThat(load(table).path("metadata").path("properties").path("swap").asText())
        .isEqualTo("cut");
    assertThat(metadataVersions(table)).isEqualTo(versions + 1);
  }

  @Test
  void aCommitWhoseAnswerIsLostAfterPostgresCommittedItIsAnswered200() throws Exception {
    String table = createTable("answer_lost");
    int versions = metadataVersions(table);
    proxy.loseNextCommitAnswer();
    HttpResponse<String> answer = send("POST", table, org.token(), setProperty("answer", "lost"));
    assertThat(proxy.commitAnswerLost()).isTrue();
    assertThat(answer.statusCode()).as(answer.body()).isEqualTo(200);
    assertThat(load(table).path("metadata").path("properties").path("answer").asText())
        .isEqualTo("lost");
    assertThat(metadataVersions(table)).isEqualTo(versions + 1);
  }

  @Test
  void aCommitWhoseAnswerIsLostAcrossARestartIsAnsweredByWhatTheRestartedServerHolds()
      throws Exception {
    String table = createTable("restarted");
    int versions = metadataVersions(table);
    proxy.loseNextCommitAnswerAndStayUnreachable();
    CompletableFuture<HttpResponse<String>> commit = CompletableFuture.supplyAsync(() ->
        send("POST", table, org.token(), setProperty("across", "restart")));
    await().atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(20))
        .until(proxy::commitAnswerLost);
    // A restarted server may have given the transaction's id to another: its own row decides.
    postgres.close();
    restartPostgres();
    proxy.unreachable(false);
    HttpResponse<String> answer = commit.get(60, TimeUnit.SECONDS);
    assertThat(answer.statusCode()).as(answer.body()).isEqualTo(200);
    assertThat(awaitServed(() -> send("GET", table, org.token(), null)).statusCode())
        .isEqualTo(200);
    assertThat(load(table).path("metadata").path("properties").path("across").asText())
        .isEqualTo("restart");
    assertThat(metadataVersions(table)).isEqualTo(versions + 1);
  }

  @Test
  void onlyADatabaseThatStaysAwayLeavesTheCommitStateUnknown() throws Exception {
    String table = createTable("stays_away");
    proxy.loseNextCommitAnswerAndStayUnreachable();
    HttpResponse<String> answer;
    try {
      answer = send("POST", table, org.token(), setProperty("stays", "away"));
    } finally {
      proxy.unreachable(false);
    }
    assertThat(proxy.commitAnswerLost()).isTrue();
    assertThat(answer.statusCode()).isEqualTo(500);
    assertThat(JSON.readTree(answer.body()).path("error").path("type").asText())
        .isEqualTo("CommitStateUnknownException");
    // It had committed: the client, told "unknown", finds it there.
    assertThat(awaitServed(() -> send("GET", table, org.token(), null)).statusCode())
        .isEqualTo(200);
    assertThat(load(table).path("metadata").path("properties").path("stays").asText())
        .isEqualTo("away");
  }

  private static void assertUnavailable(HttpResponse<String> response, String format) {
    assertThat(response.statusCode()).as(response.body()).isEqualTo(503);
    assertThat(response.headers().firstValue("Retry-After")).hasValue("1");
    assertThat(response.body()).contains(format);
  }

  private static void restartPostgres() {
    postgres = EmbeddedPostgresServer.start(cluster);
    proxy.target(port(postgres.settings()));
  }

  /** The first answer that is not a 503, asking again while the pool reconnects. */
  private static HttpResponse<String> awaitServed(
      java.util.function.Supplier<HttpResponse<String>> request) throws InterruptedException {
    AtomicReference<HttpResponse<String>> last = new AtomicReference<>();
    try {
      await().atMost(Duration.ofSeconds(60)).pollDelay(Duration.ZERO)
          .pollInterval(Duration.ofMillis(250)).pollInSameThread().until(() -> {
            last.set(request.get());
            return last.get().statusCode() != 503;
          });
    } catch (ConditionTimeoutException e) {
      // Still 503 after a minute: the caller's assertion shows it.
    }
    return last.get();
  }

  /** Ends the server process whose update of a table's row waits for {@code rival}'s lock. */
  private static int terminateBackendWaitingToSwap(Connection rival) throws Exception {
    AtomicInteger ended = new AtomicInteger(-1);
    try (Connection admin = direct(); PreparedStatement waiting = admin.prepareStatement(
        "select pid from pg_stat_activity where wait_event_type = 'Lock'"
            + " and query ilike 'update%catalog_objects%' and pid <> ?")) {
      waiting.setInt(1, backendPid(rival));
      try {
        await().atMost(Duration.ofSeconds(30)).pollDelay(Duration.ZERO)
            .pollInterval(Duration.ofMillis(50)).pollInSameThread().until(() -> {
              try (ResultSet rows = waiting.executeQuery()) {
                if (!rows.next()) {
                  return false;
                }
                int pid = rows.getInt(1);
                try (Statement end = admin.createStatement()) {
                  end.execute("select pg_terminate_backend(" + pid + ")");
                }
                ended.set(pid);
                return true;
              }
            });
      } catch (ConditionTimeoutException e) {
        // No update waited in time: -1 tells the caller.
      }
    }
    return ended.get();
  }

  private static int backendPid(Connection connection) throws SQLException {
    try (Statement statement = connection.createStatement();
        ResultSet row = statement.executeQuery("select pg_backend_pid()")) {
      row.next();
      return row.getInt(1);
    }
  }

  private static Connection direct() throws SQLException {
    DatabaseSettings settings = postgres.settings();
    return DriverManager.getConnection(settings.jdbcUrl(), settings.user(), settings.password());
  }

  private static String createTable(String name) {
    HttpResponse<String> created = send("POST", iceberg("/namespaces/faults/tables"),
        org.token(), "{\"name\": \"" + name + "\", \"schema\": " + SCHEMA + "}");
    assertThat(created.statusCode()).as(created.body()).isEqualTo(200);
    return iceberg("/namespaces/faults/tables/" + name);
  }

  private static String setProperty(String key, String value) {
    return "{\"requirements\": [], \"updates\": [{\"action\": \"set-properties\", "
        + "\"updates\": {\"" + key + "\": \"" + value + "\"}}]}";
  }

  private static JsonNode load(String table) throws Exception {
    HttpResponse<String> loaded = send("GET", table, org.token(), null);
    assertThat(loaded.statusCode()).as(loaded.body()).isEqualTo(200);
    return JSON.readTree(loaded.body());
  }

  /** How many metadata files the table has had: each landed commit adds exactly one. */
  private static int metadataVersions(String table) throws Exception {
    return load(table).path("metadata").path("metadata-log").size() + 1;
  }

  private static String iceberg(String path) {
    return "/iceberg/v1/" + org.warehouse() + path;
  }

  private static URI url(String path) {
    return URI.create("http://127.0.0.1:" + floe.server().port() + path);
  }

  private static HttpResponse<String> send(String method, String path, String token,
      String body) {
    return send(method, path, token, body, null);
  }

  private static HttpResponse<String> send(String method, String path, String token,
      String body, String cookie) {
    HttpRequest.Builder request = HttpRequest.newBuilder(url(path))
        .timeout(Duration.ofSeconds(60))
        .method(method, body == null ? HttpRequest.BodyPublishers.noBody()
            : HttpRequest.BodyPublishers.ofString(body));
    if (token != null) {
      request.header("Authorization", "Bearer " + token);
    }
    if (body != null) {
      request.header("Content-Type", "application/json");
    }
    if (cookie != null) {
      request.header("Cookie", cookie);
    }
    try {
      return HTTP.send(request.build(), HttpResponse.BodyHandlers.ofString());
    } catch (Exception e) {
      throw new IllegalStateException(method + " " + path + " failed", e);
    }
  }

  private static int port(DatabaseSettings settings) {
    String url = settings.jdbcUrl();
    int colon = url.lastIndexOf(':');
    return Integer.parseInt(url.substring(colon + 1, url.indexOf('/', colon)));
  }
}
