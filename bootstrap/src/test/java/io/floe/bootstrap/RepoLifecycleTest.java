package io.floe.bootstrap;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.floe.application.port.out.LifecycleProbe;
import io.floe.bootstrap.NamespaceCrashRecoveryTest.SimulatedCrash;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
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
 * The end of a repo's life over HTTP against a real server with the default recovery period:
 * the cleanup pass purges repos whose recovery period has passed, immediate and data-retaining
 * deletes mirror the namespaces', and a repo create or purge stopped between two steps, as a
 * crash would stop it, is undone or finished by the next start's pass.
 */
class RepoLifecycleTest {
  @TempDir
  Path directory;
  private final AtomicReference<String> crashAt = new AtomicReference<>();
  private FloeServer server;
  private ManagementApi api;
  private String token;
  private final String org = "repo-lifecycle";

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

  @Test
  void aSoftDeletedRepoIsPurgedOnceItsRecoveryPeriodHasPassed() {
    start(Duration.ZERO);
    Path files = location(createRepo("weather"));
    assertThat(api.delete(repos() + "/weather").status()).isEqualTo(204);
    assertThat(cleanup().path("repos_purged").asInt()).as("still recoverable").isZero();
    assertThat(api.post(repos(), Map.of("name", "weather")).status()).as("name still held")
        .isEqualTo(409);

    restart(Duration.ofDays(8));
    assertThat(api.post(repos() + "/weather/restore", Map.of()).status()).isEqualTo(404);
    JsonNode report = cleanup();
    assertThat(report.path("repos_purged").asInt()).isEqualTo(1);
    assertThat(report.path("objects_deleted").asLong()).isPositive();
    assertThat(files).doesNotExist();
    assertThat(api.get(repos() + "?deleted=true").body().path("repos")).isEmpty();
    assertThat(createRepo("weather").path("name").asText()).isEqualTo("weather");
  }

  @Test
  void anImmediateDeleteFreesTheNameAtOnceAndThePurgeLeavesItsNewHolderAlone() {
    start(Duration.ZERO);
    Path files = location(createRepo("weather"));
    assertThat(api.delete(repos() + "/weather?immediate=true").status()).isEqualTo(204);
    assertThat(api.post(repos() + "/weather/restore", Map.of()).status()).isEqualTo(404);
    assertThat(api.post(namespaces(), Map.of("name", "weather")).status()).isEqualTo(201);

    assertThat(cleanup().path("repos_purged").asInt()).isEqualTo(1);
    assertThat(files).doesNotExist();
    // The namespace still holds the name: neither a repo nor another namespace can take it.
    assertThat(api.post(repos(), Map.of("name", "weather")).status()).isEqualTo(409);
    assertThat(api.get(namespaces() + "/weather").status()).isEqualTo(200);
  }

  @Test
  void retainDataPurgesTheRepoButKeepsItsFiles() {
    start(Duration.ZERO);
    Path files = location(createRepo("archive"));
    assertThat(api.delete(repos() + "/archive?immediate=true&retain_data=true").status())
        .isEqualTo(204);
    JsonNode report = cleanup();
    assertThat(report.path("repos_purged").asInt()).isEqualTo(1);
    assertThat(report.path("objects_deleted").asLong()).isZero();
    assertThat(files.resolve("repo")).exists();
    assertThat(api.get(repos() + "/archive").status()).isEqualTo(404);
    assertThat(createRepo("archive").path("name").asText()).isEqualTo("archive");
  }

  @Test
  void theCommandLineDeletesImmediatelyKeepingTheData() {
    start(Duration.ZERO);
    Path files = location(createRepo("cli"));
    int exitCode = FloeCommand.commandLine().execute("repos", "delete", "cli", "--immediate",
        "--retain-data", "--url", "http://127.0.0.1:" + server.port(), "--token", token,
        "--org", org);
    assertThat(exitCode).isZero();
    assertThat(cleanup().path("repos_purged").asInt()).isEqualTo(1);
    assertThat(files.resolve("repo")).exists();
  }

  @ParameterizedTest
  @ValueSource(strings = {"repo-cleanup:started", "repo-cleanup:emptied"})
  void aPurgeStoppedHalfWayIsFinishedByTheNextPass(String step) {
    start(Duration.ZERO);
    Path files = location(createRepo("scratch"));
    assertThat(api.delete(repos() + "/scratch?immediate=true").status()).isEqualTo(204);

    crashAt.set(step);
    assertThat(api.post(cleanupPath(), Map.of()).status()).isEqualTo(500);
    // Whatever was done is consistent: the name is free, the claim still guards the prefix.
    assertThat(createRepo("scratch").path("name").asText()).isEqualTo("scratch");

    restart(Duration.ZERO);
    assertThat(cleanup().path("repos_purged").asInt()).isEqualTo(1);
    assertThat(files).doesNotExist();
    assertThat(api.get(repos() + "/scratch/refs").status()).as("the new repo is untouched")
        .isEqualTo(200);
  }

  @ParameterizedTest
  @ValueSource(strings = {"repo-create:claimed", "repo-create:initialized"})
  void aCreateStoppedHalfWayIsUndoneByTheNextStart(String step) {
    start(Duration.ZERO);
    crashAt.set(step);
    assertThat(api.post(repos(), Map.of("name", "weather")).status()).isEqualTo(500);
    // The name and the prefix are held by the unfinished creation, and nothing is visible.
    assertThat(api.get(repos() + "/weather").status()).isEqualTo(404);
    assertThat(api.post(repos(), Map.of("name", "weather")).status()).isEqualTo(409);

    // Restarted later than the grace for creations in flight: the cleanup pass undoes it.
    restart(Duration.ofHours(1));
    assertThat(cleanup().path("creations_undone").asInt()).isEqualTo(1);
    assertThat(filesIn(bucket())).as("no orphan files at an unclaimed prefix").isEmpty();

    Path files = location(createRepo("weather"));
    assertThat(filesIn(bucket())).isNotEmpty().allMatch(file -> file.startsWith(files));
  }

  private JsonNode createRepo(String name) {
    ManagementApi.Reply reply = api.post(repos(), Map.of("name", name));
    assertThat(reply.status()).as("create %s: %s", name, reply.body()).isEqualTo(201);
    return reply.body();
  }

  private static Path location(JsonNode repo) {
    return Path.of(URI.create(repo.path("location").asText()));
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
    ManagementApi.Reply reply = api.post(cleanupPath(), Map.of());
    assertThat(reply.status()).as("cleanup: %s", reply.body()).isEqualTo(200);
    return reply.body();
  }

  private static List<Path> filesIn(Path root) {
    if (!Files.exists(root)) {
      return List.of();
    }
    try (Stream<Path> files = Files.walk(root)) {
      return files.filter(Files::isRegularFile).toList();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private Path bucket() {
    return directory.resolve("buckets").resolve(org);
  }

  private String repos() {
    return "/orgs/" + org + "/repos";
  }

  private String namespaces() {
    return "/orgs/" + org + "/iceberg/namespaces";
  }

  private String cleanupPath() {
    return "/orgs/" + org + "/iceberg/cleanup";
  }
}
