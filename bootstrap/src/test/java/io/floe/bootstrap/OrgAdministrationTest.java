package io.floe.bootstrap;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.rest.RESTCatalog;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/**
 * Operators (the admins of the server's bootstrap org) create orgs with {@code POST /orgs} and
 * switch their Iceberg flag with {@code PATCH /orgs/{org}}, over HTTP and with {@code floe orgs
 * create|set-iceberg}; everyone else is refused.
 */
@FloeServerTest
class OrgAdministrationTest {
  private static final ObjectMapper JSON = new ObjectMapper();

  static TestFloe floe;
  static String operatorToken;
  static String bootstrapOrg;

  record Run(int exitCode, String out, String err) {}

  @BeforeAll
  static void startServer(TestFloe shared) throws Exception {
    floe = shared;
    operatorToken = Files.readString(floe.settings().adminTokenFile()).strip();
    bootstrapOrg = floe.settings().org().value();
  }

  private static ManagementApi api(String token) {
    return new ManagementApi(floe.server().port(), token);
  }

  @Test
  void anOperatorCreatesAnOrgWhoseAdminTokenWorksThereOnly() {
    ManagementApi.Reply created = api(operatorToken).post("/orgs",
        Map.of("name", "org-b", "iceberg_enabled", true));
    assertThat(created.status()).as(created.body().toString()).isEqualTo(201);
    JsonNode body = created.body();
    assertThat(body.path("name").asText()).isEqualTo("org-b");
    assertThat(body.path("iceberg_enabled").asBoolean()).isTrue();
    assertThat(body.path("default_bucket").path("platform").asText()).isEqualTo("local");
    assertThat(body.path("default_bucket").path("name").asText()).isEqualTo(
        floe.settings().dataDir().resolve("buckets").resolve("org-b")
            .toAbsolutePath().toString());
    assertThat(body.path("admin").path("role").asText()).isEqualTo("admin");
    String tokenB = body.path("token").asText();
    assertThat(tokenB).startsWith("ema_");

    ManagementApi b = api(tokenB);
    JsonNode orgs = b.get("/user/orgs").body();
    assertThat(orgs).hasSize(1);
    assertThat(orgs.get(0).path("role").asText()).isEqualTo("admin");
    try (RESTCatalog catalog = floe.catalog(new TestFloe.Org("org-b", tokenB), Map.of())) {
      catalog.createNamespace(Namespace.of("weather"));
      assertThat(catalog.listNamespaces()).containsExactly(Namespace.of("weather"));
    } catch (java.io.IOException e) {
      throw new AssertionError(e);
    }
    assertThat(b.get("/orgs/" + bootstrapOrg).status()).isEqualTo(404);
    assertThat(b.get("/orgs/" + bootstrapOrg + "/iceberg/namespaces").status()).isEqualTo(404);
    assertThat(b.get("/iceberg/v1/config?warehouse=" + bootstrapOrg).status()).isEqualTo(404);

    // The name is taken now; B's admin is not an operator.
    assertThat(api(operatorToken).post("/orgs", Map.of("name", "org-b")).status())
        .isEqualTo(409);
    ManagementApi.Reply refused = b.post("/orgs", Map.of("name", "org-c"));
    assertThat(refused.status()).isEqualTo(403);
    assertThat(refused.detail()).contains("operators");
    assertThat(b.patch("/orgs/org-b", Map.of("iceberg_enabled", false)).status())
        .isEqualTo(403);
  }

  @Test
  void nonOperatorsAndBadRequestsAreRefused() throws Exception {
    // A member of the bootstrap org who is not an admin is no operator.
    ManagementApi operator = api(operatorToken);
    String member = operator.post("/orgs/" + bootstrapOrg + "/api-clients",
        Map.of("name", "robot", "role", "member")).body().path("id").asText();
    String memberToken = operator.post("/orgs/" + bootstrapOrg + "/tokens",
        Map.of("principal_id", member)).body().path("token").asText();
    assertThat(memberToken).startsWith("ema_");
    assertThat(api(memberToken).post("/orgs", Map.of("name", "by-member")).status())
        .isEqualTo(403);
    assertThat(api(memberToken).patch("/orgs/" + bootstrapOrg,
        Map.of("iceberg_enabled", false)).status()).isEqualTo(403);
    // An admin of another org is no operator either.
    TestFloe.Org other = floe.newOrg();
    assertThat(api(other.token()).post("/orgs", Map.of("name", "by-other")).status())
        .isEqualTo(403);

    assertThat(withoutToken("POST", "/orgs", "{\"name\": \"anon\"}")).isEqualTo(401);
    assertThat(withoutToken("PATCH", "/orgs/" + bootstrapOrg, "{\"iceberg_enabled\": false}"))
        .isEqualTo(401);
    assertThat(api("ema_" + "0".repeat(64)).post("/orgs", Map.of("name", "x1")).status())
        .isEqualTo(401);

    ManagementApi.Reply badName = operator.post("/orgs", Map.of("name", "Bad_Name"));
    assertThat(badName.status()).isIn(400, 422);
    assertThat(badName.detail()).contains("invalid org name");
    assertThat(operator.post("/orgs", Map.of("name", "-x")).status()).isIn(400, 422);
    assertThat(operator.post("/orgs", Map.of("iceberg_enabled", true)).status()).isEqualTo(422);
    assertThat(operator.patch("/orgs/no-such-org", Map.of("iceberg_enabled", true)).status())
        .isEqualTo(404);
    assertThat(operator.patch("/orgs/" + bootstrapOrg, Map.of()).status()).isEqualTo(422);
    assertThat(operator.get("/orgs/by-member").status()).isEqualTo(404);
  }

  @Test
  void anOrgCanBringItsOwnDefaultBucket() {
    Path lake = floe.localBucketDirectory("lake-d");
    ManagementApi.Reply created = api(operatorToken).post("/orgs", Map.of("name", "org-d",
        "default_bucket", Map.of("platform", "local", "name", lake.toString(),
            "prefix", "warehouse", "auth", Map.of("method", "none"))));
    assertThat(created.status()).as(created.body().toString()).isEqualTo(201);
    assertThat(created.body().path("default_bucket").path("nickname").asText())
        .isEqualTo("default");
    assertThat(created.body().path("default_bucket").path("prefix").asText())
        .isEqualTo("warehouse");
    ManagementApi d = api(created.body().path("token").asText());
    assertThat(d.get("/orgs/org-d/buckets").body().get(0).path("name").asText())
        .isEqualTo(lake.toString());
    assertThat(d.post("/orgs/org-d/iceberg/namespaces", Map.of("name", "obs")).status())
        .isEqualTo(201);
  }

  @Test
  void theIcebergFlagFromTheCommandLineGatesNamespaceCreation() throws Exception {
    Run created = floe("orgs", "create", "org-e", "--no-iceberg", "-o", "json");
    assertThat(created.exitCode()).as(created.err()).isZero();
    JsonNode org = JSON.readTree(created.out());
    assertThat(org.path("iceberg_enabled").asBoolean()).isFalse();
    ManagementApi e = api(org.path("token").asText());

    ManagementApi.Reply off = e.post("/orgs/org-e/iceberg/namespaces", Map.of("name", "obs"));
    assertThat(off.status()).isEqualTo(403);
    assertThat(off.detail()).contains("Iceberg is not enabled");
    // The same through the Iceberg REST API.
    String restNamespaces = "/iceberg/v1/" + e.get("/iceberg/v1/config?warehouse=org-e").body()
        .path("overrides").path("prefix").asText() + "/namespaces";
    ManagementApi.Reply restOff = e.post(restNamespaces, Map.of("namespace", List.of("raw")));
    assertThat(restOff.status()).isEqualTo(403);
    assertThat(restOff.body().path("error").path("message").asText())
        .contains("Iceberg is not enabled");
    assertThat(e.get("/orgs/org-e").body().path("iceberg_enabled").asBoolean()).isFalse();

    Run enabled = floe("orgs", "set-iceberg", "org-e", "--enabled");
    assertThat(enabled.exitCode()).as(enabled.err()).isZero();
    assertThat(enabled.out()).contains("org-e", "iceberg: on");
    ManagementApi.Reply on = e.post("/orgs/org-e/iceberg/namespaces", Map.of("name", "obs"));
    assertThat(on.status()).as(on.body().toString()).isEqualTo(201);
    ManagementApi.Reply restOn = e.post(restNamespaces, Map.of("namespace", List.of("raw")));
    assertThat(restOn.status()).as(restOn.body().toString()).isEqualTo(200);

    Run disabled = floe("orgs", "set-iceberg", "org-e", "--disabled", "-o", "json");
    assertThat(JSON.readTree(disabled.out()).path("iceberg_enabled").asBoolean()).isFalse();
    assertThat(e.post("/orgs/org-e/iceberg/namespaces", Map.of("name", "obs2")).status())
        .isEqualTo(403);

    Run text = floe("orgs", "create", "org-f");
    assertThat(text.exitCode()).as(text.err()).isZero();
    assertThat(text.out()).contains("created org org-f", "iceberg: on", "token (shown this once): ema_");

    Run taken = floe("orgs", "create", "org-f");
    assertThat(taken.exitCode()).isEqualTo(1);
    assertThat(taken.err()).contains("409");
    Run neither = floe("orgs", "set-iceberg", "org-f");
    assertThat(neither.exitCode()).isNotZero();

    TestFloe.Org notOperator = floe.newOrg();
    Run refused = run("orgs", "create", "org-g", "--url",
        "http://127.0.0.1:" + floe.server().port(), "--token", notOperator.token());
    assertThat(refused.exitCode()).isEqualTo(1);
    assertThat(refused.err()).contains("403");
  }

  private static int withoutToken(String method, String path, String body) throws Exception {
    HttpRequest request = HttpRequest.newBuilder(
            URI.create("http://127.0.0.1:" + floe.server().port() + path))
        .header("Content-Type", "application/json")
        .method(method, HttpRequest.BodyPublishers.ofString(body)).build();
    return HttpClient.newHttpClient().send(request, HttpResponse.BodyHandlers.ofString())
        .statusCode();
  }

  private static Run floe(String... args) {
    List<String> all = new ArrayList<>(List.of(args));
    all.addAll(List.of("--url", "http://127.0.0.1:" + floe.server().port(),
        "--token", operatorToken));
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
