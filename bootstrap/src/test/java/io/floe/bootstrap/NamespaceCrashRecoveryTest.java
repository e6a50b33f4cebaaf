package io.floe.bootstrap;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.floe.application.port.out.LifecycleProbe;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A namespace create and a cleanup stopped between two of their steps, as a crash would stop them
 * (no compensation runs, the open transaction rolls back), then the server restarted on the same
 * database and buckets: the next start finishes or undoes what was left.
 */
class NamespaceCrashRecoveryTest {
  private static final String MARKER = ".floe-warehouse.json";

  @TempDir
  Path directory;
  private final AtomicReference<String> crashAt = new AtomicReference<>();
  private FloeServer server;
  private ManagementApi api;
  private String token;
  private final String org = "crashes";

  /** Thrown at the armed step; an Error, so no {@code catch (RuntimeException)} undoes anything. */
  static final class SimulatedCrash extends Error {
    SimulatedCrash(String step) {
      super("simulated crash at " + step);
    }
  }

  private final LifecycleProbe probe = step -> {
    if (step.equals(crashAt.get())) {
      crashAt.set(null);
      throw new SimulatedCrash(step);
    }
  };

  @AfterEach
  void stop() {
    if (server != null) {
      server.close();
    }
  }

  @ParameterizedTest
  @ValueSource(strings = {"namespace-create:claimed", "namespace-create:initialized"})
  void aCreateStoppedHalfWayIsUndoneByTheNextStart(String step) {
    start(Duration.ZERO);
    crashAt.set(step);
    assertThat(api.post(namespaces(), Map.of("name", "obs")).status()).isEqualTo(500);
    // The name and the prefix are held by the unfinished creation, and nothing is visible.
    assertThat(api.get(namespaces() + "/obs").status()).isEqualTo(404);
    assertThat(api.post(namespaces(), Map.of("name", "obs")).status()).isEqualTo(409);

    // Restarted later than the grace for creations in flight: the cleanup pass undoes it.
    restart(Duration.ofHours(1));
    JsonNode report = cleanup();
    assertThat(report.path("creations_undone").asInt()).isEqualTo(1);
    assertThat(markers()).isEmpty();

    JsonNode created = api.post(namespaces(), Map.of("name", "obs")).body();
    assertThat(created.path("name").asText()).isEqualTo("obs");
    assertThat(markers()).containsExactly(bucket().resolve(created.path("prefix").asText())
        .resolve(MARKER));
  }

  @ParameterizedTest
  @ValueSource(strings = {"namespace-cleanup:started", "namespace-cleanup:emptied"})
  void aCleanupStoppedHalfWayIsFinishedByTheNextPass(String step) throws IOException {
    start(Duration.ZERO);
    JsonNode scratch = api.post(namespaces(), Map.of("name", "scratch")).body();
    Path prefix = bucket().resolve(scratch.path("prefix").asText());
    Files.writeString(prefix.resolve("orphan.parquet"), "left by a dropped table");
    assertThat(api.delete(namespaces() + "/scratch?imsure=true&immediate=true").status())
        .isEqualTo(204);

    crashAt.set(step);
    assertThat(api.post("/orgs/" + org + "/iceberg/cleanup", Map.of()).status()).isEqualTo(500);
    // Whatever was done is consistent: the name is free, the claim still guards the prefix.
    assertThat(api.post(namespaces(), Map.of("name", "scratch")).status()).isEqualTo(201);

    restart(Duration.ZERO);
    JsonNode report = cleanup();
    assertThat(report.path("namespaces_purged").asInt()).isEqualTo(1);
    assertThat(prefix).doesNotExist();
    assertThat(api.get(namespaces() + "/scratch").status()).isEqualTo(200);
  }

  @Test
  void aSoftDeletedNamespaceIsPurgedOnceItsRecoveryPeriodHasPassed() {
    start(Duration.ZERO);
    JsonNode obs = api.post(namespaces(), Map.of("name", "obs")).body();
    api.delete(namespaces() + "/obs?imsure=true");
    assertThat(cleanup().path("namespaces_purged").asInt()).as("still recoverable").isZero();

    restart(Duration.ofDays(8));
    assertThat(api.post(namespaces() + "/obs/restore", Map.of()).status()).isEqualTo(404);
    assertThat(cleanup().path("namespaces_purged").asInt()).isEqualTo(1);
    assertThat(bucket().resolve(obs.path("prefix").asText())).doesNotExist();
    assertThat(api.post(namespaces(), Map.of("name", "obs")).status()).isEqualTo(201);
  }

  private void start(Duration clockOffset) {
    // The default recovery period; the org's bucket lies beneath a root the server allows.
    Path data = directory.resolve("data");
    ServerSettings settings = TestSettings.defaults(data)
        .localBucketRoots(List.of(data.resolve("buckets"), directory.resolve("buckets"))).build();
    server = FloeServer.serve(Composition.build(settings,
        Clock.offset(Clock.systemUTC(), clockOffset), probe));
    if (token == null) {
      token = TestFloe.createOrg(server.port(), TestFloe.operators(settings), org, bucket())
          .token();
    }
    api = new ManagementApi(server.port(), token);
  }

  private void restart(Duration clockOffset) {
    server.close();
    server = null;
    start(clockOffset);
  }

  private JsonNode cleanup() {
    ManagementApi.Reply reply = api.post("/orgs/" + org + "/iceberg/cleanup", Map.of());
    assertThat(reply.status()).as("cleanup: %s", reply.body()).isEqualTo(200);
    return reply.body();
  }

  private List<Path> markers() {
    try (Stream<Path> files = Files.walk(bucket())) {
      return files.filter(file -> file.getFileName().toString().equals(MARKER)).toList();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private Path bucket() {
    return directory.resolve("buckets").resolve(org);
  }

  private String namespaces() {
    return "/orgs/" + org + "/iceberg/namespaces";
  }
}
