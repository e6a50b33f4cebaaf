package io.floe.bootstrap;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermission;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.rest.RESTCatalog;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/** Starting, restarting and stopping Floe the way an operator does. */
class ServerLifecycleTest {
  private static final HttpClient HTTP = HttpClient.newHttpClient();

  @Test
  void aRestartKeepsTheOrgTheTokenAndTheCatalog(@TempDir Path dataDir) throws Exception {
    ServerSettings settings = TestSettings.defaults(dataDir).build();
    String token;
    try (FloeServer first = FloeServer.start(settings)) {
      token = Files.readString(settings.adminTokenFile()).strip();
      assertThat(token).startsWith("ema_");
      assertThat(Files.getPosixFilePermissions(settings.adminTokenFile()))
          .isEqualTo(Set.of(PosixFilePermission.OWNER_READ, PosixFilePermission.OWNER_WRITE));
      try (RESTCatalog catalog = catalog(first, token)) {
        catalog.createNamespace(Namespace.of("survives"));
      }
    }
    try (FloeServer second = FloeServer.start(settings)) {
      assertThat(Files.readString(settings.adminTokenFile()).strip()).isEqualTo(token);
      assertThat(configStatus(second.port(), token)).isEqualTo(200);
      try (RESTCatalog catalog = catalog(second, token)) {
        assertThat(catalog.namespaceExists(Namespace.of("survives"))).isTrue();
      }
    }
  }

  @Test
  void sigtermStopsTheServerAndItsEmbeddedPostgres(@TempDir Path dataDir) throws Exception {
    Process floe = new ProcessBuilder(
        Path.of(System.getProperty("java.home"), "bin", "java").toString(),
        "-XX:+ExitOnOutOfMemoryError", "-cp", System.getProperty("java.class.path"),
        FloeCommand.class.getName(), "serve", "--port", "0", "--data-dir", dataDir.toString())
        .redirectErrorStream(true).start();
    try {
      int port = awaitPort(floe);
      String token = Files.readString(dataDir.resolve("admin.token")).strip();
      assertThat(configStatus(port, token)).isEqualTo(200);
      long postgresPid = Long.parseLong(
          Files.readAllLines(dataDir.resolve("postgres/postmaster.pid")).get(0).strip());
      assertThat(isRunning(postgresPid)).isTrue();

      floe.destroy(); // SIGTERM
      assertThat(floe.waitFor(60, TimeUnit.SECONDS)).isTrue();
      assertThat(floe.exitValue()).isIn(0, 143);
      assertThat(isRunning(postgresPid)).as("embedded PostgreSQL left running").isFalse();
      assertThat(dataDir.resolve("postgres/postmaster.pid")).doesNotExist();
    } finally {
      floe.destroyForcibly();
    }
  }

  @Test
  void helpExplainsEveryOptionAndItsEnvironmentVariable() {
    String top = run("--help");
    assertThat(top).contains("serve").contains("Iceberg REST catalog");
    String serve = run("serve", "--help");
    for (String option : new String[] {"--port", "--bind", "--data-dir", "--org",
        "--database-url", "--database-user", "--database-password", "--secret-key-file",
        "--previous-secret-key-file"}) {
      assertThat(serve).contains(option);
    }
    assertThat(serve).contains("FLOE_PORT").contains("FLOE_DATA_DIR").contains("8181")
        .contains("127.0.0.1").contains("my-org").contains("FLOE_DATABASE_URL")
        .contains("FLOE_SECRET_KEY_FILE").contains("FLOE_SECRET_KEY;");
    assertThat(run("secrets", "rotate", "--help")).contains("--new-key-file")
        .contains("--data-dir").contains("--secret-key-file").contains("one database");
  }

  @Test
  void aBadOptionIsReportedInOneReadableLine() {
    StringWriter err = new StringWriter();
    CommandLine command = FloeCommand.commandLine().setErr(new PrintWriter(err));
    int exit = command.execute("serve", "--port", "not-a-port");
    assertThat(exit).isNotZero();
    assertThat(err.toString()).contains("--port").contains("not-a-port");
  }

  /** Alive and not a zombie waiting to be reaped by a init process that may never do it. */
  private static boolean isRunning(long pid) throws java.io.IOException {
    Path stat = Path.of("/proc", Long.toString(pid), "stat");
    if (!Files.exists(stat)) {
      return ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false);
    }
    String fields = Files.readString(stat);
    char state = fields.charAt(fields.lastIndexOf(')') + 2);
    return state != 'Z' && state != 'X';
  }

  private static String run(String... args) {
    StringWriter out = new StringWriter();
    CommandLine command = FloeCommand.commandLine().setOut(new PrintWriter(out));
    assertThat(command.execute(args)).isZero();
    return out.toString();
  }

  private static int awaitPort(Process floe) throws Exception {
    Pattern uri = Pattern.compile("Iceberg REST catalog: http://127\\.0\\.0\\.1:(\\d+)/iceberg");
    BufferedReader output = new BufferedReader(
        new InputStreamReader(floe.getInputStream(), StandardCharsets.UTF_8));
    StringBuilder seen = new StringBuilder();
    String line;
    while ((line = output.readLine()) != null) {
      seen.append(line).append('\n');
      Matcher matcher = uri.matcher(line);
      if (matcher.find()) {
        Thread drain = new Thread(() -> output.lines().forEach(ignored -> { }));
        drain.setDaemon(true);
        drain.start();
        return Integer.parseInt(matcher.group(1));
      }
    }
    throw new AssertionError("Floe exited before it was ready:\n" + seen);
  }

  private static int configStatus(int port, String token) throws Exception {
    return HTTP.send(HttpRequest.newBuilder(
            URI.create("http://127.0.0.1:" + port + "/iceberg/v1/config?warehouse=my-org"))
        .header("Authorization", "Bearer " + token).build(),
        HttpResponse.BodyHandlers.ofString()).statusCode();
  }

  private static RESTCatalog catalog(FloeServer server, String token) {
    RESTCatalog catalog = new RESTCatalog();
    catalog.setConf(new org.apache.hadoop.conf.Configuration());
    catalog.initialize("floe", Map.of("uri", server.catalogUri(), "warehouse", "my-org",
        "token", token));
    return catalog;
  }
}
