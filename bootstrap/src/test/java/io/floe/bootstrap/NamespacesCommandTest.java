package io.floe.bootstrap;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.floe.domain.DomainException;
import io.floe.domain.TableIdentifierSyntax;
import java.io.ByteArrayInputStream;
import java.io.InputStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/** {@code floe namespaces ...} and {@code floe tables ...} against a running server. */
@FloeServerTest
class NamespacesCommandTest {
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
  void namespacesAreCreatedUpdatedListedAndShownAsJson() throws Exception {
    Run created = floe("namespaces", "create", "observations", "--description", "Stations",
        "--metadata", "{\"region\": \"EU\"}");
    assertThat(created.exitCode()).as(created.err()).isZero();
    assertThat(created.out()).contains("observations", "bucket default", "Stations");

    Run updated = floe("namespaces", "update", "observations", "--update-metadata",
        "{\"region\": \"US\"}", "--visibility", "AUTHENTICATED_PUBLIC", "-o", "json");
    JsonNode json = new ObjectMapper().readTree(updated.out());
    assertThat(json.path("metadata").path("region").asText()).isEqualTo("US");
    assertThat(json.path("visibility").asText()).isEqualTo("AUTHENTICATED_PUBLIC");

    JsonNode listed = new ObjectMapper().readTree(floe("namespaces", "list", "--search", "obs",
        "--output", "json").out());
    assertThat(listed.path("items").get(0).path("name").asText()).isEqualTo("observations");
    Run invalid = floe("namespaces", "update", "observations", "--add-metadata", "{\"a\": 1}",
        "--remove-metadata", "a");
    assertThat(invalid.exitCode()).isEqualTo(1);
    assertThat(invalid.err()).contains("422", "disjoint");
  }

  @Test
  void deletionAsksUnlessConfirmedAndRestoreBringsItBack() {
    floe("namespaces", "create", "scratch");
    Run declined = withInput("n\n", () -> floe("namespaces", "delete", "scratch"));
    assertThat(declined.exitCode()).isEqualTo(1);
    assertThat(declined.out()).contains("Delete namespace", "Not deleted");
    assertThat(floe("namespaces", "get", "scratch").exitCode()).isZero();

    Run accepted = withInput("yes\n", () -> floe("namespaces", "delete", "scratch"));
    assertThat(accepted.exitCode()).as(accepted.err()).isZero();
    assertThat(floe("namespaces", "get", "scratch").exitCode()).isEqualTo(1);

    floe("namespaces", "create", "other");
    assertThat(floe("namespaces", "delete", "other", "--confirm", "--immediate").out())
        .contains("cannot be restored");
    assertThat(floe("namespaces", "restore", "other").err()).contains("404");
  }

  @Test
  void tablesAreListedAndDescribedByQuotedIdentifiers() {
    floe("namespaces", "create", "obs");
    new ManagementApi(floe.server().port(), org.token()).post("/iceberg/v1/" + org.warehouse()
        + "/namespaces/obs/tables", Map.of("name", "weather.daily", "schema", Map.of("type",
            "struct", "schema-id", 0, "fields", List.of(Map.of("id", 1, "name", "temp_c",
                "required", false, "type", "double")))));

    assertThat(floe("tables", "list", "obs").out()).contains("obs.\"weather.daily\"");
    Run described = floe("tables", "describe", "obs.\"weather.daily\"");
    assertThat(described.exitCode()).as(described.err()).isZero();
    assertThat(described.out()).contains("metadata.json", "temp_c", "double");
    assertThat(floe("tables", "describe", "obs.missing").err()).contains("404");
  }

  @Test
  void theIdentifierGrammarQuotesOnlyWhatNeedsIt() {
    assertThat(TableIdentifierSyntax.parse("\"a\"\"b\".weather"))
        .isEqualTo(new TableIdentifierSyntax("a\"b", "weather"));
    assertThat(TableIdentifierSyntax.parse("\"observations.v2\".\"weather.daily\"").format())
        .isEqualTo("\"observations.v2\".\"weather.daily\"");
    assertThat(new TableIdentifierSyntax("my-ns", "t_1").format()).isEqualTo("my-ns.t_1");
    assertThatThrownBy(() -> TableIdentifierSyntax.parse("a.b.c"))
        .hasMessageContaining("NAMESPACE.TABLE");
    assertThatThrownBy(() -> TableIdentifierSyntax.parse("\"unterminated.t"))
        .isInstanceOf(DomainException.class);
  }

  private static Run withInput(String input, java.util.function.Supplier<Run> run) {
    InputStream original = System.in;
    System.setIn(new ByteArrayInputStream(input.getBytes(StandardCharsets.UTF_8)));
    try {
      return run.get();
    } finally {
      System.setIn(original);
    }
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
