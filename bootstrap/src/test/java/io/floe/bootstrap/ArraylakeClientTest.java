package io.floe.bootstrap;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.fail;
import static org.junit.jupiter.api.Assumptions.assumeFalse;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.StreamSupport;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The public arraylake client (PyPI arraylake 1.7.0), unchanged, against a running Floe: its
 * namespace methods, its pyiceberg catalog, and its {@code al iceberg namespace|table} commands.
 * A missing virtualenv fails these tests; {@code -Dfloe.skipPythonClients=true} skips them.
 */
@FloeServerTest(recoverable = true)
class ArraylakeClientTest {
  private static final ObjectMapper JSON = new ObjectMapper();

  @TempDir
  static Path directory;
  static TestFloe floe;
  /** Each test has an org of its own; this is the admin token of each. */
  static final Map<String, String> TOKENS = new java.util.HashMap<>();

  @BeforeAll
  static void startServer(TestFloe shared) {
    floe = shared;
    for (String org : List.of("client-org", "cli-org")) {
      TOKENS.put(org, floe.newOrg(org).token());
    }
  }

  @Test
  void theClientsNamespaceMethodsAndCatalogWork() {
    assumeFalse(skipped(), "Python clients skipped on request");
    JsonNode seen = PythonClient.run("arraylake_namespaces.py", serviceUri(),
        TOKENS.get("client-org"), "client-org");

    assertThat(seen.path("created").path("prefix").asText()).matches("[a-z0-9]{8}_observations");
    assertThat(seen.path("created").path("bucket_nickname").asText()).isEqualTo("default");
    assertThat(seen.path("modified").path("description").asText())
        .isEqualTo("Quality-controlled weather observations");
    assertThat(seen.path("modified").path("metadata").path("quality_checked").asBoolean())
        .isFalse();
    assertThat(seen.path("got").path("visibility").asText()).isEqualTo("AUTHENTICATED_PUBLIC");
    assertThat(seen.path("overlap_error").asText()).contains("disjoint");
    assertThat(texts(seen.path("catalog_namespaces")))
        .containsExactly("observations", "scratch", "traffic", "weather-raw");
    assertThat(seen.path("rows").asInt()).isEqualTo(2);
    assertThat(texts(seen.path("search"))).containsExactly("weather-raw", "observations");
    assertThat(texts(seen.path("filtered"))).containsExactly("observations");
    JsonNode byTables = seen.path("by_tables");
    assertThat(byTables).hasSize(4);
    assertThat(byTables.get(0).get(0).asText()).isEqualTo("observations");
    assertThat(byTables.get(0).get(1).asInt()).isEqualTo(3);
    assertThat(texts(byTables.get(0).get(2)))
        .containsExactly("CAN_MANAGE_USERS", "CAN_READ", "CAN_WRITE");
    assertThat(seen.path("tables").get(0).get(0).asText()).isEqualTo("stations");
    assertThat(seen.path("tables")).hasSize(3);
    assertThat(seen.path("non_empty_error").asText()).contains("409");
    assertThat(texts(seen.path("after_delete"))).doesNotContain("traffic");
    assertThat(seen.path("ghosts").toString()).contains("[\"traffic\",true]");
    assertThat(seen.path("restored").asBoolean()).isTrue();
    assertThat(seen.path("recreated_prefix_differs").asBoolean()).isTrue();
  }

  @Test
  void theAlIcebergCommandsWork() {
    assumeFalse(skipped(), "Python clients skipped on request");
    JsonNode created = alJson("iceberg", "namespace", "create", "cli-org", "observations",
        "--description", "Weather observations", "--metadata", "{\"source\": \"stations\"}",
        "--output", "json");
    assertThat(created.path("description").asText()).isEqualTo("Weather observations");
    assertThat(alJson("iceberg", "namespace", "get", "cli-org", "observations", "--output",
        "json").path("id")).isEqualTo(created.path("id"));
    JsonNode updated = alJson("iceberg", "namespace", "update", "cli-org", "observations",
        "--add-metadata", "{\"region\": \"US\"}", "--output", "json");
    assertThat(updated.path("metadata").path("region").asText()).isEqualTo("US");
    assertThat(names(alJson("iceberg", "namespace", "list", "cli-org", "--search", "obs",
        "--sort", "relevance", "--output", "json"))).containsExactly("observations");
    assertThat(names(alJson("iceberg", "namespace", "list", "cli-org", "--filter-metadata",
        "{\"region\": \"US\"}", "--include-ghosts", "--output", "json")))
        .containsExactly("observations");

    createTable("cli-org", "observations", "weather");
    createTable("cli-org", "observations", "weather.daily");
    JsonNode tables = alJson("iceberg", "table", "list", "cli-org", "observations", "--sort",
        "name", "--direction", "asc", "--output", "json");
    assertThat(StreamSupport.stream(tables.spliterator(), false)
        .map(table -> table.path("identifier").asText()).toList())
        .containsExactly("observations.weather", "observations.\"weather.daily\"");
    JsonNode described = alJson("iceberg", "table", "describe", "cli-org",
        "observations.\"weather.daily\"", "--output", "json");
    assertThat(described.path("name").asText()).isEqualTo("weather.daily");
    assertThat(described.path("metadata_location").asText()).contains("metadata.json");

    String refused = al(1, "iceberg", "namespace", "delete", "cli-org", "observations",
        "--confirm");
    assertThat(refused).contains("409");
    al(0, "iceberg", "namespace", "create", "cli-org", "scratch");
    assertThat(al(0, "iceberg", "namespace", "delete", "cli-org", "scratch", "--confirm"))
        .contains("Deleted namespace cli-org/scratch");
    assertThat(al(0, "iceberg", "namespace", "restore", "cli-org", "scratch"))
        .contains("Restored cli-org/scratch");
  }

  private static void createTable(String org, String namespace, String table) {
    ManagementApi.Reply reply = new ManagementApi(floe.port(), TOKENS.get(org)).post(
        "/iceberg/v1/" + org + "/namespaces/" + namespace + "/tables", Map.of("name", table,
            "schema", Map.of("type", "struct", "schema-id", 0, "fields", List.of(Map.of(
                "id", 1, "name", "x", "required", false, "type", "long")))));
    assertThat(reply.status()).as("create table: %s", reply.body()).isEqualTo(200);
  }

  private JsonNode alJson(String... args) {
    try {
      return JSON.readTree(al(0, args));
    } catch (IOException e) {
      throw new AssertionError("al printed no JSON", e);
    }
  }

  /** Runs {@code al} with the arguments; fails unless it exits with {@code expectedExit}. */
  private static String al(int expectedExit, String... args) {
    Path al = venvBin().resolve("al");
    if (!Files.isExecutable(al)) {
      fail("this test needs arraylake==1.7.0 installed at " + al
          + " (or -Dfloe.skipPythonClients=true to skip it)");
    }
    List<String> command = new ArrayList<>(List.of(al.toString()));
    command.addAll(List.of(args));
    ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true);
    builder.environment().put("ARRAYLAKE_SERVICE__URI", serviceUri());
    builder.environment().put("ARRAYLAKE_TOKEN", TOKENS.get("cli-org"));
    builder.environment().put("ARRAYLAKE_CONFIG", directory.resolve("arraylake-config").toString());
    builder.environment().put("COLUMNS", "200");
    try {
      Process process = builder.start();
      process.getOutputStream().close();
      String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
      if (!process.waitFor(2, TimeUnit.MINUTES) || process.exitValue() != expectedExit) {
        fail(String.join(" ", command) + " exited with " + process.exitValue() + ":\n" + output);
      }
      return output;
    } catch (IOException e) {
      throw new AssertionError("could not run " + command, e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new AssertionError(e);
    }
  }

  private static Path venvBin() {
    String python = System.getProperty("floe.python");
    if (python != null && !python.isBlank()) {
      return Path.of(python).toAbsolutePath().getParent();
    }
    return Path.of(System.getProperty("user.dir")).toAbsolutePath().getParent()
        .resolve(".venv/bin");
  }

  private static String serviceUri() {
    return "http://127.0.0.1:" + floe.port();
  }

  private static boolean skipped() {
    return Boolean.getBoolean("floe.skipPythonClients");
  }

  private static List<String> texts(JsonNode array) {
    return StreamSupport.stream(array.spliterator(), false).map(JsonNode::asText).toList();
  }

  private static List<String> names(JsonNode array) {
    return StreamSupport.stream(array.spliterator(), false)
        .map(item -> item.path("name").asText()).toList();
  }
}
