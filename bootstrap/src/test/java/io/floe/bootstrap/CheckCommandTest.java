package io.floe.bootstrap;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/**
 * {@code floe check} against a running server on a local bucket: clean after tables and views
 * were made the ordinary way, and each inconsistency planted on disk found, in one request or in
 * many small ones, with exit code 1 and the findings in its JSON.
 */
@FloeServerTest
class CheckCommandTest {
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
    ManagementApi api = new ManagementApi(floe.server().port(), org.token());
    String iceberg = "/iceberg/v1/" + org.warehouse();
    api.post(iceberg + "/namespaces", Map.of("namespace", List.of("sales")));
    for (String table : List.of("orders", "returns")) {
      api.post(iceberg + "/namespaces/sales/tables", Map.of("name", table, "schema",
          Map.of("type", "struct", "schema-id", 0, "fields", List.of(Map.of("id", 1,
              "name", "id", "required", false, "type", "long")))));
    }
    floe("namespaces", "create", "scratch");
    Run repo = floe("repos", "create", "weather");
    assertThat(repo.exitCode()).as(repo.err()).isZero();
  }

  @Test
  void aConsistentCatalogIsClean() throws IOException {
    Run run = floe("check", "-o", "json");

    assertThat(run.exitCode()).as(run.out() + run.err()).isZero();
    JsonNode report = new ObjectMapper().readTree(run.out());
    assertThat(report.path("clean").asBoolean()).isTrue();
    assertThat(report.path("findings")).isEmpty();
    assertThat(report.path("checked").asLong()).isGreaterThanOrEqualTo(2);
    assertThat(floe("check").out()).startsWith("clean: ");
  }

  @Test
  void aDeletedMetadataFileAndAnUnclaimedDirectoryAreFound() throws IOException {
    Path bucket = floe.bucketDirectory(org);
    Path metadata = metadataFileOf("orders");
    Files.delete(metadata);
    Path stray = bucket.resolve("left-behind").resolve("data");
    Files.createDirectories(stray);
    Files.writeString(stray.resolve("part-0.parquet"), "not ours");

    Run whole = floe("check", "-o", "json");
    Run paged = floe("check", "-o", "json", "--limit", "1");

    assertThat(whole.exitCode()).as(whole.err()).isEqualTo(1);
    JsonNode report = new ObjectMapper().readTree(whole.out());
    assertThat(report.path("clean").asBoolean()).isFalse();
    assertThat(report.path("findings")).hasSize(2);
    JsonNode missing = report.path("findings").get(0);
    assertThat(missing.path("kind").asText()).isEqualTo("metadata_missing");
    assertThat(missing.path("subject").asText()).isEqualTo("sales.orders");
    assertThat(missing.path("detail").asText()).contains(metadata.getFileName().toString());
    JsonNode unclaimed = report.path("findings").get(1);
    assertThat(unclaimed.path("kind").asText()).isEqualTo("unclaimed_prefix");
    assertThat(unclaimed.path("subject").asText()).endsWith(":left-behind");
    assertThat(paged.exitCode()).isEqualTo(1);
    assertThat(new ObjectMapper().readTree(paged.out()).path("findings"))
        .isEqualTo(report.path("findings"));
    assertThat(floe("check").out()).contains("metadata_missing", "sales.orders",
        "unclaimed_prefix", "left-behind", "2 finding(s)");
  }

  @Test
  void aCheckThatCannotRunExitsTwo() {
    Run badLimit = floe("check", "--limit", "0");
    Run badToken = floe("check", "--page-token", "not-a-token");

    assertThat(badLimit.exitCode()).isEqualTo(2);
    assertThat(badLimit.err()).contains("400", "limit");
    assertThat(badToken.exitCode()).isEqualTo(2);
    assertThat(badToken.err()).contains("400", "page_token");
  }

  /** The table's current metadata file, on the local bucket's disk. */
  private Path metadataFileOf(String table) {
    String location = new ManagementApi(floe.server().port(), org.token())
        .get("/iceberg/v1/" + org.warehouse() + "/namespaces/sales/tables/" + table).body()
        .path("metadata-location").asText();
    Path file = Path.of(URI.create(location));
    assertThat(file).isRegularFile();
    return file;
  }

  private Run floe(String... args) {
    List<String> all = new ArrayList<>(List.of(args));
    all.addAll(List.of("--url", "http://127.0.0.1:" + floe.server().port(),
        "--token", org.token(), "--org", org.warehouse()));
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    CommandLine command = FloeCommand.commandLine();
    command.setOut(new PrintWriter(out, true));
    command.setErr(new PrintWriter(err, true));
    int exitCode = command.execute(all.toArray(String[]::new));
    return new Run(exitCode, out.toString(), err.toString());
  }
}
