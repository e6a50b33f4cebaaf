package io.floe.bootstrap;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.awaitility.core.ConditionTimeoutException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code kill -9} of {@code java -jar floe.jar serve} on its embedded default in the middle of
 * sequential commits: the very next start succeeds, says what it repaired, and every commit the
 * server acknowledged is in the table's metadata.
 */
class EmbeddedPostgresCrashIT {
  private static final Path JAR = Path.of(System.getProperty("floe.jar", "target/floe.jar"));
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final HttpClient HTTP = HttpClient.newBuilder()
      .connectTimeout(Duration.ofSeconds(5)).build();
  private static final int MAX_COMMITS = 1_000;
  /** Acknowledged commits before each kill: enough to be in the middle, few enough to be quick. */
  private static final int KILL_AFTER = 50;

  @Test
  void killNineInTheMiddleOfCommitsLosesNoAcknowledgedOneAndTheNextStartRepairsWhatItLeft(
      @TempDir Path dir) throws Exception {
    assertThat(JAR).as("the runnable jar (mvn package)").exists();
    Path dataDir = dir.resolve("floe-data");
    Server server = Server.start(dataDir, dir.resolve("start-1.log"));
    String token = Files.readString(dataDir.resolve("admin.token")).strip();
    assertThat(send(server.base() + "/iceberg/v1/my-org/namespaces", token,
        "{\"namespace\": [\"crash\"]}")).isEqualTo(200);
    assertThat(send(server.base() + "/iceberg/v1/my-org/namespaces/crash/tables", token, """
        {"name": "t", "schema": {"type": "struct", "schema-id": 0, "fields": [
          {"id": 1, "name": "x", "required": false, "type": "long"}]}}""")).isEqualTo(200);
    List<Integer> acknowledged = Collections.synchronizedList(new ArrayList<>());

    // Floe alone dies: its PostgreSQL runs on, an orphan the next start must stop.
    long postgres = postmasterPid(dataDir);
    int next = commitUntilKilled(server, token, acknowledged, 0);
    assertThat(isRunning(postgres)).as("PostgreSQL outlived its Floe").isTrue();
    server = Server.start(dataDir, dir.resolve("start-2.log"));
    assertThat(Files.readString(dir.resolve("start-2.log"))).contains("repaired after an unclean "
        + "stop: stopped the PostgreSQL server (PID " + postgres + ")");
    assertThat(isRunning(postgres)).isFalse();
    assertEveryAcknowledgedCommitIsThere(server, token, acknowledged);

    // Floe and then its PostgreSQL die, as in a power loss: the next start recovers from the WAL.
    postgres = postmasterPid(dataDir);
    commitUntilKilled(server, token, acknowledged, next);
    ProcessHandle.of(postgres).ifPresent(ProcessHandle::destroyForcibly);
    long killed = postgres;
    try {
      await().atMost(Duration.ofSeconds(10)).pollInterval(Duration.ofMillis(50))
          .pollInSameThread().until(() -> !isRunning(killed));
    } catch (ConditionTimeoutException zombie) {
      // Left a zombie where nothing reaps it; the start below copes, as checked after it.
    }
    server = Server.start(dataDir, dir.resolve("start-3.log"));
    try {
      // The killed server is gone, or (where nothing reaps the orphans of a killed process, as
      // in a container without an init) a zombie whose lock file PostgreSQL would still honour.
      assertThat(Files.readString(dir.resolve("start-3.log"))).contains("repaired after an "
          + "unclean stop: ").containsAnyOf(
              "did not stop cleanly (its PID " + postgres + " is gone)",
              "did not stop cleanly (PID " + postgres + " ended but was never reaped)");
      assertEveryAcknowledgedCommitIsThere(server, token, acknowledged);
    } finally {
      server.process().destroy();
      assertThat(server.process().waitFor(60, TimeUnit.SECONDS)).isTrue();
    }
  }

  /**
   * Sends requirement-free commits, one at a time, numbered from {@code first}; kills the server
   * with -9 once {@link #KILL_AFTER} more are acknowledged, most likely in the middle of one.
   * Returns the next number.
   */
  private static int commitUntilKilled(Server server, String token, List<Integer> acknowledged,
      int first) throws Exception {
    String table = server.base() + "/iceberg/v1/my-org/namespaces/crash/tables/t";
    int[] next = {first};
    Thread committer = new Thread(() -> {
      for (; next[0] < MAX_COMMITS; next[0]++) {
        int i = next[0];
        try {
          if (send(table, token, "{\"requirements\": [], \"updates\": [{\"action\": "
              + "\"set-properties\", \"updates\": {\"commit-" + i + "\": \"" + i + "\"}}]}")
              == 200) {
            acknowledged.add(i);
          }
        } catch (IOException | InterruptedException e) {
          return; // the server is gone
        }
      }
    });
    int before = acknowledged.size();
    committer.start();
    Instant deadline = Instant.now().plus(Duration.ofSeconds(60));
    while (acknowledged.size() - before < KILL_AFTER && committer.isAlive()
        && Instant.now().isBefore(deadline)) {
      // Real time on purpose: when the kill lands among the commits is what this test varies.
      Thread.sleep(5);
    }
    server.process().destroyForcibly().waitFor();
    committer.join(30_000);
    assertThat(acknowledged.size() - before).isGreaterThanOrEqualTo(KILL_AFTER);
    assertThat(next[0]).as("killed before the last commit").isLessThan(MAX_COMMITS);
    return next[0] + 1;
  }

  private static void assertEveryAcknowledgedCommitIsThere(Server server, String token,
      List<Integer> acknowledged) throws Exception {
    HttpResponse<String> load = HTTP.send(request(server.base()
        + "/iceberg/v1/my-org/namespaces/crash/tables/t", token).GET().build(),
        HttpResponse.BodyHandlers.ofString());
    assertThat(load.statusCode()).isEqualTo(200);
    JsonNode properties = JSON.readTree(load.body()).path("metadata").path("properties");
    List<Integer> lost = new ArrayList<>();
    for (int i : List.copyOf(acknowledged)) {
      if (!properties.path("commit-" + i).asText().equals(Integer.toString(i))) {
        lost.add(i);
      }
    }
    assertThat(lost).as("acknowledged commits missing after the crash").isEmpty();
  }

  private static long postmasterPid(Path dataDir) throws IOException {
    return Long.parseLong(
        Files.readAllLines(dataDir.resolve("postgres/postmaster.pid")).get(0).strip());
  }

  /**
   * {@code java -jar floe.jar serve} on a free port, its output in {@code log}, ending if its heap
   * runs out as {@code floe serve} does.
   */
  private record Server(Process process, String base) {
    static Server start(Path dataDir, Path log) throws Exception {
      int port = freePort();
      Process process = new ProcessBuilder(
          Path.of(System.getProperty("java.home"), "bin", "java").toString(),
          "-XX:+ExitOnOutOfMemoryError", "-jar", JAR.toString(), "serve", "--port", Integer.toString(port), "--data-dir",
          dataDir.toString())
          .redirectErrorStream(true).redirectOutput(log.toFile()).start();
      String base = "http://127.0.0.1:" + port;
      Instant deadline = Instant.now().plus(Duration.ofMinutes(3));
      while (Instant.now().isBefore(deadline)) {
        if (!process.isAlive()) {
          throw new AssertionError("Floe exited (" + process.exitValue() + "):\n"
              + Files.readString(log));
        }
        try {
          if (HTTP.send(HttpRequest.newBuilder(URI.create(base + "/ready")).build(),
              HttpResponse.BodyHandlers.discarding()).statusCode() == 200) {
            return new Server(process, base);
          }
        } catch (IOException e) {
          // not listening yet
        }
        // Between attempts, wait on the process itself: an exit is noticed at once.
        process.waitFor(100, TimeUnit.MILLISECONDS);
      }
      process.destroyForcibly();
      throw new AssertionError("Floe was not ready in time:\n" + Files.readString(log));
    }
  }

  private static int send(String uri, String token, String body)
      throws IOException, InterruptedException {
    return HTTP.send(request(uri, token).POST(HttpRequest.BodyPublishers.ofString(body))
        .build(), HttpResponse.BodyHandlers.discarding()).statusCode();
  }

  private static HttpRequest.Builder request(String uri, String token) {
    return HttpRequest.newBuilder(URI.create(uri)).timeout(Duration.ofSeconds(30))
        .header("Authorization", "Bearer " + token).header("Content-Type", "application/json");
  }

  /** Alive and not a zombie (an orphan's adopter may never reap it). */
  private static boolean isRunning(long pid) throws IOException {
    Path stat = Path.of("/proc", Long.toString(pid), "stat");
    if (!Files.exists(stat)) {
      return ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false);
    }
    String fields = Files.readString(stat);
    char state = fields.charAt(fields.lastIndexOf(')') + 2);
    return state != 'Z' && state != 'X';
  }

  private static int freePort() throws IOException {
    try (ServerSocket socket = new ServerSocket(0)) {
      return socket.getLocalPort();
    }
  }
}
