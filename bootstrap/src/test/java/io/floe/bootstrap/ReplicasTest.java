package io.floe.bootstrap;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.floe.adapters.persistence.DatabaseSettings;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;
import org.junit.jupiter.api.io.TempDir;

/**
 * Two Floe servers on one external PostgreSQL, set up as docs/replicas.md
 * says (the same database, data directory and secret key): commits through both are
 * linearizable, what one commits the other loads at once, and while one commits to a table the
 * other keeps loading its other tables from memory.
 */
@EnabledIfSystemProperty(named = ExternalDatabases.URL, matches = ".+")
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class ReplicasTest {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final int WRITERS = 8;
  private static final int COMMITS_EACH = 10;

  private FloeServer first;
  private FloeServer second;
  /** The admin's requests through the first replica and through the second. */
  private IcebergHttp throughFirst;
  private IcebergHttp throughSecond;

  @BeforeAll
  void startTwoReplicas(@TempDir Path directory) throws IOException {
    DatabaseSettings database = ExternalDatabases.fresh();
    Path data = directory.resolve("data");
    ServerSettings settings = TestSettings.defaults(data)
        .database(Optional.of(database))
        .localBucketRoots(List.of(data.resolve("buckets")))
        // No webhook rounds: the test counts the statements a replica sends.
        .webhooks(TestFloe.LOOPBACK_WEBHOOKS.withPollInterval(Duration.ofDays(1))).build();
    first = FloeServer.start(settings);
    second = FloeServer.start(settings);
    String token = Files.readString(settings.adminTokenFile()).strip();
    String warehouse = settings.org().value();
    throughFirst = new IcebergHttp(first.catalogUri(), warehouse, token);
    throughSecond = new IcebergHttp(second.catalogUri(), warehouse, token);
    assertThat(throughFirst.post("/namespaces", "{\"namespace\": [\"shared\"]}").status())
        .isEqualTo(200);
  }

  /** A new table, created through the second replica. */
  private String newTable(String name) {
    assertThat(throughSecond.post("/namespaces/shared/tables", "{\"name\": \"" + name + "\", "
        + "\"schema\": {\"type\": \"struct\", \"schema-id\": 0, \"fields\": [{\"id\": 1, "
        + "\"name\": \"id\", \"required\": true, \"type\": \"long\"}]}}").status())
        .isEqualTo(200);
    return name;
  }

  @AfterAll
  void stopReplicas() {
    if (second != null) {
      second.close();
    }
    if (first != null) {
      first.close();
    }
  }

  @Test
  void requirementFreeCommitsThroughBothReplicasAllLandInOneLine() throws Exception {
    String table = newTable("contended");
    ExecutorService writers = Executors.newFixedThreadPool(WRITERS);
    List<Future<List<Integer>>> statuses = new ArrayList<>();
    try {
      for (int writer = 0; writer < WRITERS; writer++) {
        IcebergHttp through = writer % 2 == 0 ? throughFirst : throughSecond;
        String key = "writer-" + writer;
        statuses.add(writers.submit(() -> {
          List<Integer> answered = new ArrayList<>();
          for (int commit = 0; commit < COMMITS_EACH; commit++) {
            answered.add(commit(through, table, key, String.valueOf(commit)).status());
          }
          return answered;
        }));
      }
      for (Future<List<Integer>> writer : statuses) {
        assertThat(writer.get()).as("every commit is acknowledged").containsOnly(200);
      }
    } finally {
      writers.shutdownNow();
    }

    for (IcebergHttp replica : List.of(throughFirst, throughSecond)) {
      JsonNode metadata = load(replica, table).body().path("metadata");
      for (int writer = 0; writer < WRITERS; writer++) {
        assertThat(metadata.path("properties").path("writer-" + writer).asText())
            .isEqualTo(String.valueOf(COMMITS_EACH - 1));
      }
      // One version per commit, each built on the one before: none was lost or overwritten.
      assertThat(metadata.path("metadata-log")).hasSize(WRITERS * COMMITS_EACH);
    }
  }

  @Test
  void aCommitThroughOneReplicaIsLoadedThroughTheOtherAtOnce() throws Exception {
    String table = newTable("seen");
    for (int i = 0; i < 10; i++) {
      IcebergHttp writer = i % 2 == 0 ? throughFirst : throughSecond;
      IcebergHttp reader = i % 2 == 0 ? throughSecond : throughFirst;
      IcebergHttp.Reply committed = commit(writer, table, "seen", "v" + i);
      assertThat(committed.status()).isEqualTo(200);
      IcebergHttp.Reply loaded = load(reader, table);
      assertThat(loaded.body().path("metadata-location").asText())
          .isEqualTo(committed.body().path("metadata-location").asText());
      assertThat(loaded.body().path("metadata").path("properties").path("seen").asText())
          .isEqualTo("v" + i);
    }
  }

  @Test
  void whileCommitsRunThroughOneReplicaTheOtherLoadsOtherTablesFromMemory() throws Exception {
    String written = newTable("written");
    String read = newTable("read");
    assertThat(load(throughSecond, read).status()).isEqualTo(200);
    assertThat(load(throughSecond, read).status()).isEqualTo(200);
    ExecutorService writer = Executors.newSingleThreadExecutor();
    try {
      Future<List<Integer>> commits = writer.submit(() -> {
        List<Integer> answered = new ArrayList<>();
        for (int i = 0; i < 30; i++) {
          answered.add(commit(throughFirst, written, "n", String.valueOf(i)).status());
        }
        return answered;
      });
      long statements = statementsSent(second);
      int loads = 0;
      while (!commits.isDone()) {
        assertThat(load(throughSecond, read).status()).isEqualTo(200);
        loads++;
      }
      long sent = statementsSent(second) - statements;
      assertThat(commits.get()).containsOnly(200);
      assertThat(loads).isGreaterThan(20);
      // Every load of the other table is answered from memory; what the second replica sends
      // meanwhile is its own housekeeping (token uses, written every few seconds).
      assertThat(sent).as("statements the second replica sent for %d loads", loads)
          .isLessThan(loads / 10 + 5);
    } finally {
      writer.shutdownNow();
    }
    assertThat(load(throughSecond, written).body().path("metadata").path("properties")
        .path("n").asText()).as("and the written table, loaded after the last commit")
        .isEqualTo("29");
  }

  /** What {@code floe_db_statements_total} of a replica's {@code /metrics} says now. */
  private static long statementsSent(FloeServer replica) throws Exception {
    String catalog = replica.catalogUri();
    URI metrics = URI.create(catalog.substring(0, catalog.indexOf("/iceberg")) + "/metrics");
    String text = HttpClient.newHttpClient().send(HttpRequest.newBuilder(metrics).build(),
        HttpResponse.BodyHandlers.ofString()).body();
    return text.lines().filter(line -> line.startsWith("floe_db_statements_total"))
        .mapToLong(line -> (long) Double.parseDouble(line.substring(line.lastIndexOf(' ') + 1)))
        .sum();
  }

  private static IcebergHttp.Reply commit(IcebergHttp replica, String table, String key,
      String value) throws Exception {
    String body = JSON.writeValueAsString(Map.of("requirements", List.of(), "updates",
        List.of(Map.of("action", "set-properties", "updates", Map.of(key, value)))));
    return replica.post("/namespaces/shared/tables/" + table, body);
  }

  private static IcebergHttp.Reply load(IcebergHttp replica, String table) {
    return replica.get("/namespaces/shared/tables/" + table);
  }
}
