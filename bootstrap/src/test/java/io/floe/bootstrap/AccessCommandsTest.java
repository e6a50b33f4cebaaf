package io.floe.bootstrap;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.iceberg.catalog.Namespace;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/**
 * {@code floe principals|teams|tokens|grants ...} against a running server: from the admin token
 * to a read-only user, as an admin would type it.
 */
@FloeServerTest
class AccessCommandsTest {
  private static final ObjectMapper JSON = new ObjectMapper();

  private static TestFloe floe;
  private static TestFloe.Org org;

  record Run(int exitCode, String out, String err) {
    JsonNode json() {
      try {
        return JSON.readTree(out);
      } catch (Exception e) {
        throw new AssertionError(out + err, e);
      }
    }
  }

  @BeforeAll
  static void start(TestFloe shared) {
    floe = shared;
    org = floe.newOrg();
    floe.catalog(org, Map.of()).createNamespace(Namespace.of("reports"));
  }

  @Test
  void fromTheAdminTokenToAReadOnlyUserAndBack() {
    Run user = floe("principals", "create", "--kind", "user", "Ada", "-o", "json");
    assertThat(user.exitCode()).as(user.err()).isZero();
    String ada = user.json().path("id").asText();

    Run granted = floe("grants", "create", ada, "read", "reports");
    assertThat(granted.exitCode()).as(granted.err()).isZero();
    assertThat(granted.out()).contains("read", "reports", "Ada");

    Run issued = floe("tokens", "issue", ada, "--expires-in", "30d", "--description", "laptop",
        "-o", "json");
    assertThat(issued.exitCode()).as(issued.err()).isZero();
    TestFloe.Org asAda = new TestFloe.Org(org.warehouse(), issued.json().path("token").asText());
    IcebergHttp http = new IcebergHttp(floe, asAda);
    assertThat(http.get("/namespaces").body().toString()).contains("reports");
    assertThat(http.post("/namespaces", "{\"namespace\":[\"x\"]}").status()).isEqualTo(403);

    assertThat(floe("tokens", "list", "--principal", ada).out()).contains("laptop", "last used");
    assertThat(floe("grants", "list", "--namespace", "reports").out()).contains("Ada");
    assertThat(floe("principals", "list", "--kind", "user").out()).contains("Ada", "member");

    Run revoked = floe("tokens", "revoke", issued.json().path("id").asText());
    assertThat(revoked.exitCode()).as(revoked.err()).isZero();
    assertThat(revoked.out()).contains("REVOKED");
    assertThat(http.get("/namespaces").status()).isEqualTo(401);
  }

  @Test
  void teamsGatherUsersAndRefusalsAreReadable() {
    String team = floe("principals", "create", "--kind", "team", "analysts", "-o", "json")
        .json().path("id").asText();
    String bo = floe("principals", "create", "--kind", "user", "Bo", "-o", "json")
        .json().path("id").asText();
    assertThat(floe("teams", "add-member", team, bo).exitCode()).isZero();
    assertThat(floe("teams", "members", team).out()).contains("Bo");
    assertThat(floe("teams", "remove-member", team, bo).exitCode()).isZero();
    assertThat(floe("teams", "members", team).out()).doesNotContain("Bo");

    Run wrong = floe("grants", "create", bo, "own", "reports");
    assertThat(wrong.exitCode()).isEqualTo(1);
    assertThat(wrong.err()).contains("422", "action must be read, write or manage");
  }

  private static Run floe(String... args) {
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
