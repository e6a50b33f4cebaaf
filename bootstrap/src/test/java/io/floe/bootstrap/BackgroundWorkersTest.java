package io.floe.bootstrap;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.floe.application.health.Worker;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import org.awaitility.core.ConditionTimeoutException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A background thread the server needs that fails (the cache listener died of an
 * {@code OutOfMemoryError} once, and every write then waited five seconds for a 503 while
 * {@code /ready} said all was well): while it is down, {@code /ready} answers 503 naming it, and
 * writes are refused at once with a 503 and {@code Retry-After}, reads go on; once it runs again,
 * so do writes.
 */
class BackgroundWorkersTest {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final HttpClient HTTP = HttpClient.newHttpClient();

  @Test
  void whileAWorkerIsDownReadinessNamesItAndWritesAreRefusedAtOnce(@TempDir Path directory)
      throws Exception {
    try (TestFloe floe = TestFloe.start(directory)) {
      TestFloe.Org org = floe.newOrg();
      IcebergHttp catalog = new IcebergHttp(floe, org);
      assertThat(catalog.post("/namespaces", "{\"namespace\":[\"sales\"]}").status())
          .isEqualTo(200);
      assertThat(ready(floe).statusCode()).isEqualTo(200);

      // Fails with an error every time it runs, until it is told to stop failing.
      AtomicBoolean failing = new AtomicBoolean(true);
      CountDownLatch runningAgain = new CountDownLatch(1);
      Worker worker = floe.workers().start("floe-test-worker", () -> {
        if (failing.get()) {
          throw new StackOverflowError("a failure no loop catches");
        }
        runningAgain.countDown();
        new CountDownLatch(1).await();
      }, () -> { });
      try {
        HttpResponse<String> notReady = awaitReady(floe, 503);
        JsonNode problems = JSON.readTree(notReady.body()).path("problems");
        assertThat(problems.toString()).contains("background worker floe-test-worker is down");

        HttpResponse<String> write = send(floe, org, "POST", "/namespaces",
            "{\"namespace\":[\"refused\"]}");
        assertThat(write.statusCode()).isEqualTo(503);
        assertThat(JSON.readTree(write.body()).path("error").path("type").asText())
            .isEqualTo("ServiceUnavailableException");
        assertThat(write.headers().firstValue("Retry-After")).hasValueSatisfying(
            seconds -> assertThat(Long.parseLong(seconds)).isBetween(1L, 30L));
        assertThat(catalog.get("/namespaces").status()).isEqualTo(200);
        assertThat(catalog.get("/namespaces/refused").status()).isEqualTo(404);

        failing.set(false);
        assertThat(runningAgain.await(60, java.util.concurrent.TimeUnit.SECONDS)).isTrue();
        awaitReady(floe, 200);
        assertThat(catalog.post("/namespaces", "{\"namespace\":[\"accepted\"]}").status())
            .isEqualTo(200);
      } finally {
        worker.close();
      }
    }
  }

  /** Asks {@code /ready} until it answers {@code status} (at most a minute). */
  private static HttpResponse<String> awaitReady(TestFloe floe, int status) throws Exception {
    AtomicReference<HttpResponse<String>> last = new AtomicReference<>();
    try {
      await().atMost(Duration.ofMinutes(1)).pollDelay(Duration.ZERO)
          .pollInterval(Duration.ofMillis(50)).pollInSameThread().until(() -> {
            last.set(ready(floe));
            return last.get().statusCode() == status;
          });
    } catch (ConditionTimeoutException e) {
      // The assertion below says what it answered last.
    }
    HttpResponse<String> response = last.get();
    assertThat(response.statusCode()).as(response.body()).isEqualTo(status);
    return response;
  }

  private static HttpResponse<String> ready(TestFloe floe) throws Exception {
    return HTTP.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:"
        + floe.server().port() + "/ready")).build(), HttpResponse.BodyHandlers.ofString());
  }

  private static HttpResponse<String> send(TestFloe floe, TestFloe.Org org, String method,
      String path, String body) throws Exception {
    return HTTP.send(HttpRequest.newBuilder(URI.create(floe.uri() + "/v1/" + org.warehouse()
            + path)).header("Authorization", "Bearer " + org.token())
        .header("Content-Type", "application/json")
        .method(method, HttpRequest.BodyPublishers.ofString(body)).build(),
        HttpResponse.BodyHandlers.ofString());
  }
}
