package io.floe.bootstrap;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeFalse;

import com.fasterxml.jackson.databind.JsonNode;
import java.net.URI;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * A repo whose table Python wrote by the icechest convention (icechunk for the pointers, PyIceberg
 * for the table's files), served by Floe's Iceberg REST catalog to PyIceberg and DuckDB at the
 * head of main and at a tag; a PyIceberg append through Floe that loses the race to a Python
 * Icechunk commit lands on top of it as one more Icechunk commit, which Python follows to the new
 * rows while the arrays keep Python's change.
 */
@FloeServerTest
class RepoTablesInteropTest {
  private static TestFloe floe;

  @BeforeAll
  static void start(TestFloe shared) {
    assumeFalse(PythonClient.skipRequested(), "Python interop skipped on request");
    floe = shared;
  }

  @AfterAll
  static void stop() {
    if (floe != null) {
      }
  }

  @Test
  void engineReadsAndAppendsThroughFloeMeetPythonsIcechunkHistory() {
    TestFloe.Org org = floe.newOrg();
    ManagementApi api = new ManagementApi(floe.server().port(), org.token());
    ManagementApi.Reply created = api.post("/orgs/" + org.warehouse() + "/repos",
        Map.of("name", "weather"));
    assertThat(created.status()).isEqualTo(201);
    String repoDir = Path.of(URI.create(created.body().get("location").asText())).toString();

    JsonNode written = PythonClient.run("repo_tables.py", "write", repoDir);

    JsonNode read = PythonClient.run("repo_tables.py", "engines-read", floe.uri(), org.token(),
        org.warehouse(), "weather");
    assertThat(read.get("namespaces").toString()).contains("\"weather\"", "\"weather@v1\"");
    assertThat(read.at("/weather/pyiceberg_rows").asInt()).isEqualTo(5);
    assertThat(read.at("/weather/duckdb_rows").asInt()).isEqualTo(5);
    assertThat(read.at("/weather/duckdb_sum").asInt()).isEqualTo(0 + 1 + 2 + 3 + 4);
    assertThat(read.at("/weather@v1/pyiceberg_rows").asInt()).isEqualTo(3);
    assertThat(read.at("/weather@v1/duckdb_rows").asInt()).isEqualTo(3);
    assertThat(read.at("/weather@v1/duckdb_sum").asInt()).isEqualTo(0 + 1 + 2);

    JsonNode appended = PythonClient.run("repo_tables.py", "append-racing", repoDir, floe.uri(),
        org.token(), org.warehouse(), "weather");
    assertThat(appended.get("acknowledged_rows").asInt()).isEqualTo(9);

    JsonNode followed = PythonClient.run("repo_tables.py", "follow", repoDir);
    assertThat(followed.get("rows").asInt()).isEqualTo(9);
    assertThat(followed.get("granules").toString()).isEqualTo(
        "[\"G-1\",\"G-2\",\"G-3\",\"G-4\",\"G-5\",\"G-6\",\"G-7\",\"G-8\",\"G-9\"]");
    assertThat(followed.get("pointer").asText())
        .isNotEqualTo(written.get("metadata").asText())
        .startsWith(followed.at("/declared/granules/location").asText() + "/metadata/");
    // Floe's commit is on top of Python's racing one, which kept its array change.
    assertThat(messages(followed.get("log")).subList(1, 5))
        .containsExactly("python arrays", "ingest G-4, G-5", "create granules",
            "Repository initialized");
    assertThat(followed.get("reflectance").toString()).isEqualTo("[100,101,102,103,4,5,6,7]");
    // The tag still shows the table as Python first wrote it.
    JsonNode again = PythonClient.run("repo_tables.py", "engines-read", floe.uri(), org.token(),
        org.warehouse(), "weather");
    assertThat(again.at("/weather/duckdb_rows").asInt()).isEqualTo(9);
    assertThat(again.at("/weather@v1/duckdb_rows").asInt()).isEqualTo(3);
  }

  private static List<String> messages(JsonNode log) {
    return java.util.stream.StreamSupport.stream(log.spliterator(), false)
        .map(JsonNode::asText).toList();
  }
}
