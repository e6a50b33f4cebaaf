package io.floe.bootstrap;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.StreamSupport;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/**
 * The orgs API ({@code GET /user/orgs}, {@code GET /orgs/{org}}) over HTTP, and {@code floe orgs}
 * and {@code floe buckets} against a running server, with the connection taken from flags or from
 * the client's config file.
 */
@FloeServerTest
class OrgsAndBucketsCommandTest {
  private static final ObjectMapper JSON = new ObjectMapper();

  @TempDir
  static Path directory;
  static TestFloe floe;

  TestFloe.Org org;

  record Run(int exitCode, String out, String err) {}

  @BeforeAll
  static void startServer(TestFloe shared) {
    floe = shared;
  }

  @BeforeEach
  void newOrg() {
    org = floe.newOrg();
  }

  @Test
  void theOrgsApiShowsTheCallersOrgsOnly() {
    TestFloe.Org other = floe.newOrg();
    ManagementApi api = new ManagementApi(floe.server().port(), org.token());
    JsonNode mine = api.get("/user/orgs").body();
    assertThat(mine).hasSize(1);
    JsonNode first = mine.get(0);
    assertThat(first.path("name").asText()).isEqualTo(org.warehouse());
    assertThat(first.path("id").asText()).isNotBlank();
    assertThat(first.path("created").asText()).isNotBlank();
    assertThat(first.path("status").asText()).isEqualTo("active");
    assertThat(first.path("permissions").isArray()).isTrue();
    assertThat(first.path("role").asText()).isEqualTo("admin");
    assertThat(first.path("iceberg_enabled").asBoolean()).isTrue();

    assertThat(api.get("/orgs/" + org.warehouse()).body().path("id"))
        .isEqualTo(first.path("id"));
    assertThat(api.get("/orgs/" + other.warehouse()).status()).as("not a member").isEqualTo(404);
    assertThat(new ManagementApi(floe.server().port(), "ema_" + "0".repeat(64))
        .get("/user/orgs").status()).isEqualTo(401);
  }

  @Test
  void orgsFromTheCommandLine() throws Exception {
    JsonNode listed = JSON.readTree(floe("orgs", "list", "-o", "json").out());
    assertThat(listed.get(0).path("name").asText()).isEqualTo(org.warehouse());
    Run got = floe("orgs", "get");
    assertThat(got.exitCode()).as(got.err()).isZero();
    assertThat(got.out()).contains(org.warehouse(), "admin", "iceberg: on");
  }

  @Test
  void bucketsAreCreatedShownChangedMadeDefaultAndDeleted() throws Exception {
    // A local bucket is the operators' to create: this works in the bootstrap org.
    org = floe.operators();
    Path archive = floe.localBucketDirectory("archive");
    Run created = floe("buckets", "create", "archive", "--platform", "local", "--bucket",
        archive.toString(), "--prefix", "lake", "--auth", "none");
    assertThat(created.exitCode()).as(created.err()).isZero();
    assertThat(created.out()).contains("archive", "local", archive + "/lake");

    assertThat(floe("buckets", "list").out()).contains("archive", "default", "(default)");
    JsonNode shown = JSON.readTree(floe("buckets", "get", "archive", "-o", "json").out());
    assertThat(shown.path("platform").asText()).isEqualTo("local");
    assertThat(shown.path("is_default").asBoolean()).isFalse();

    Run updated = floe("buckets", "update", "archive", "--prefix", "deeper/lake");
    assertThat(updated.exitCode()).as(updated.err()).isZero();
    assertThat(updated.out()).contains(archive + "/deeper/lake");

    JsonNode made = JSON.readTree(floe("buckets", "set-default", "archive", "-o", "json").out());
    assertThat(made.path("is_default").asBoolean()).isTrue();
    JsonNode all = JSON.readTree(floe("buckets", "list", "-o", "json").out());
    assertThat(StreamSupport.stream(all.spliterator(), false)
        .filter(bucket -> bucket.path("is_default").asBoolean())
        .map(bucket -> bucket.path("nickname").asText())).containsExactly("archive");

    assertThat(floe("buckets", "set-default", "default").exitCode()).isZero();
    assertThat(floe("buckets", "delete", "archive", "--confirm").exitCode()).isZero();
    Run missing = floe("buckets", "get", "archive");
    assertThat(missing.exitCode()).isEqualTo(1);
    assertThat(missing.err()).contains("404");
  }

  @Test
  void theConnectionComesFromTheConfigFileWhenFlagsAndVariablesAreMissing() throws Exception {
    Path config = directory.resolve("config-" + org.warehouse() + ".json");
    Files.writeString(config, JSON.writeValueAsString(Map.of(
        "url", "http://127.0.0.1:" + floe.server().port(), "token", org.token(),
        "org", org.warehouse())));
    Run fromFile = run("buckets", "list", "--config", config.toString());
    assertThat(fromFile.exitCode()).as(fromFile.err()).isZero();
    assertThat(fromFile.out()).contains("default");

    // A flag still wins over the file.
    Run flagWins = run("orgs", "get", "--config", config.toString(), "--org", "no-such-org");
    assertThat(flagWins.exitCode()).isEqualTo(1);
    assertThat(flagWins.err()).contains("404");
  }

  private Run floe(String... args) {
    List<String> all = new ArrayList<>(List.of(args));
    all.addAll(List.of("--url", "http://127.0.0.1:" + floe.server().port(),
        "--token", org.token(), "--org", org.warehouse()));
    return run(all.toArray(String[]::new));
  }

  private static Run run(String... args) {
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    CommandLine command = FloeCommand.commandLine();
    command.setOut(new PrintWriter(out, true));
    command.setErr(new PrintWriter(err, true));
    int exitCode = command.execute(args);
    return new Run(exitCode, out.toString(), err.toString());
  }
}
