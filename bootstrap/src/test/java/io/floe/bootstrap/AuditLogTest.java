package io.floe.bootstrap;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.iceberg.Schema;
import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.rest.RESTCatalog;
import org.apache.iceberg.types.Types;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The audit log over HTTP, as an org admin reads it: every successful change in order with who,
 * what and which request; nothing for a refused or failed change; stable keyset pages; filters;
 * 400 for a malformed filter and 403 for members who are not admins.
 */
@FloeServerTest
class AuditLogTest {
  private static final Schema SCHEMA =
      new Schema(Types.NestedField.required(1, "id", Types.LongType.get()));
  private static final String BUCKET_SECRET = "wJalrXUtnFEMI-K7MDENG-bPxRfiCYEXAMPLEKEY";

  private static TestFloe floe;
  private TestFloe.Org org;
  private OrgAccess access;
  private ManagementApi admin;

  @BeforeAll
  static void start(TestFloe shared) {
    floe = shared;
  }

  @BeforeEach
  void newOrg() {
    org = floe.newOrg();
    access = new OrgAccess(floe, org);
    admin = access.admin();
  }

  @Test
  void aSequenceOfChangesAppearsNewestFirstWithWhoWhatAndWhichRequest() throws Exception {
    ManagementApi.Reply bucket = admin.post(orgPath("/buckets"), Map.of("nickname", "lake",
        "platform", "s3-compatible", "name", "lake-bucket", "endpoint", "http://127.0.0.1:9",
        "auth", Map.of("method", "static", "access_key_id", "AKIAEXAMPLE",
            "secret_access_key", BUCKET_SECRET)));
    assertThat(bucket.status()).isEqualTo(201);
    ManagementApi.Reply user = admin.post(orgPath("/users"), Map.of("name", "ada"));
    String ada = user.body().path("id").asText();
    assertThat(admin.post(orgPath("/iceberg/namespaces"), Map.of("name", "sales")).status())
        .isEqualTo(201);
    String grant = access.grant(ada, "sales", null, "write");
    ManagementApi.Reply issued = admin.post(orgPath("/tokens"), Map.of("principal_id", ada));
    String tokenSecret = issued.body().path("token").asText();
    try (RESTCatalog engine = floe.catalog(new TestFloe.Org(org.warehouse(), tokenSecret),
        Map.of())) {
      Table table = engine.createTable(TableIdentifier.of("sales", "orders"), SCHEMA);
      table.updateProperties().set("owner", "ada").commit();
      engine.renameTable(TableIdentifier.of("sales", "orders"),
          TableIdentifier.of("sales", "orders_v2"));
      engine.dropTable(TableIdentifier.of("sales", "orders_v2"));
    }
    assertThat(admin.delete(orgPath("/tokens/" + issued.body().path("id").asText())).status())
        .isEqualTo(200);
    assertThat(admin.patch(orgPath("/iceberg/namespaces/sales"),
        Map.of("description", "orders and refunds")).status()).isEqualTo(200);

    JsonNode log = admin.get(orgPath("/audit")).body();

    assertThat(actions(log)).containsExactly("namespace.update", "token.revoke", "table.drop",
        "table.rename", "table.commit", "table.create", "token.issue", "grant.create",
        "namespace.create", "principal.create", "bucket.create");
    assertThat(targets(log)).containsExactly("namespace sales", "principal ada",
        "table sales.orders_v2", "table sales.orders", "table sales.orders",
        "table sales.orders", "principal ada", "namespace sales", "namespace sales",
        "principal ada", "bucket lake");
    String adminName = org.warehouse() + "-admin";
    assertThat(principals(log)).containsExactly(adminName, adminName, "ada", "ada", "ada", "ada",
        adminName, adminName, adminName, adminName, adminName);
    assertThat(log.path("entries")).allSatisfy(entry -> {
      assertThat(entry.path("request_id").asText()).isNotEmpty().isNotEqualTo("-");
      assertThat(Instant.parse(entry.path("recorded_at").asText())).isBefore(Instant.now());
    });
    JsonNode created = entry(log, "principal.create");
    assertThat(created.path("request_id").asText()).isEqualTo(user.requestId());
    assertThat(created.path("details").path("principal_id").asText()).isEqualTo(ada);
    assertThat(entry(log, "grant.create").path("details").path("grant_id").asText())
        .isEqualTo(grant);
    assertThat(entry(log, "grant.create").path("details").path("action").asText())
        .isEqualTo("WRITE");
    assertThat(entry(log, "token.issue").path("details").path("token_id").asText())
        .isEqualTo(issued.body().path("id").asText());
    assertThat(entry(log, "token.issue").path("request_id").asText())
        .isEqualTo(issued.requestId());
    JsonNode commit = entry(log, "table.commit").path("details");
    assertThat(commit.path("updates").toString()).isEqualTo("[\"set-properties\"]");
    assertThat(commit.path("metadata_location").asText()).contains("/orders-")
        .endsWith(".metadata.json");
    assertThat(commit.path("previous_metadata_location").asText())
        .isEqualTo(entry(log, "table.create").path("details").path("metadata_location").asText());
    assertThat(entry(log, "table.rename").path("details").path("to").asText())
        .isEqualTo("sales.orders_v2");
    assertThat(entry(log, "bucket.create").path("details").path("auth").asText())
        .isEqualTo("STATIC");
    // Never a secret: not the bucket's keys, not the token.
    assertThat(log.toString()).doesNotContain(BUCKET_SECRET).doesNotContain("AKIAEXAMPLE")
        .doesNotContain(tokenSecret);
  }

  @Test
  void aRepoDescriptionChangedThroughTheArraylakeRouteIsRecorded() {
    assertThat(admin.post(orgPath("/repos"), Map.of("name", "winds")).status()).isEqualTo(201);
    assertThat(admin.patch(orgPath("/winds"), Map.of("description", "Winds at 10 m")).status())
        .isEqualTo(200);
    assertThat(admin.patch(orgPath("/winds"), Map.of("description", "")).status())
        .isEqualTo(200);
    // Refused (too long): changes nothing, records nothing.
    assertThat(admin.patch(orgPath("/winds"), Map.of("description", "x".repeat(5000))).status())
        .isEqualTo(400);

    JsonNode log = admin.get(orgPath("/audit?target_kind=repo")).body();
    assertThat(actions(log)).containsExactly("repo.update", "repo.update", "repo.create");
    assertThat(targets(log)).containsOnly("repo winds");
    assertThat(log.path("entries").get(0).path("details").path("description").asText())
        .isEqualTo("cleared");
    assertThat(log.path("entries").get(1).path("details").path("description").asText())
        .isEqualTo("changed");
    assertThat(log.toString()).doesNotContain("Winds at 10 m");
  }

  @Test
  void refusedAndFailedChangesLeaveNoEntry() {
    String ada = access.create("users", "ada");
    TestFloe.Org adaToken = access.tokenFor(ada);
    ManagementApi asAda = access.as(adaToken);
    String team = access.create("teams", "analysts");
    assertThat(admin.post(orgPath("/iceberg/namespaces"), Map.of("name", "sales")).status())
        .isEqualTo(201);
    access.grant(ada, "sales", null, "read");
    RESTCatalog adminEngine = floe.catalog(org, Map.of());
    adminEngine.createTable(TableIdentifier.of("sales", "orders"), SCHEMA);
    List<String> before = actions(admin.get(orgPath("/audit")).body());

    // Refused: a member is not an admin, a reader is not a writer.
    assertThat(asAda.post(orgPath("/users"), Map.of("name", "mallory")).status()).isEqualTo(403);
    assertThat(asAda.post(orgPath("/buckets"), Map.of("nickname", "mine", "platform", "s3",
        "name", "b")).status()).isEqualTo(403);
    IcebergHttp adaEngine = new IcebergHttp(floe, adaToken);
    assertThat(adaEngine.post("/namespaces/sales/tables/orders", "{\"requirements\": [], "
        + "\"updates\": [{\"action\": \"set-properties\", \"updates\": {\"k\": \"v\"}}]}")
        .status()).isEqualTo(403);
    // Failed inside the change's own transaction: 409s and a 404 that roll the entry back too.
    assertThat(admin.post(orgPath("/buckets"), Map.of("nickname", "default", "platform", "s3",
        "name", "other")).status()).isEqualTo(409);
    assertThat(admin.delete(orgPath("/iceberg/namespaces/sales?imsure=true")).status())
        .isEqualTo(409);
    assertThat(admin.delete(orgPath("/teams/" + team + "/members/" + ada)).status())
        .isEqualTo(404);
    adminEngine.loadTable(TableIdentifier.of("sales", "orders")).updateSchema()
        .addColumn("a", Types.LongType.get()).commit();
    IcebergHttp.Reply stale = new IcebergHttp(floe, org).post("/namespaces/sales/tables/orders",
        "{\"requirements\": [{\"type\": \"assert-current-schema-id\", \"current-schema-id\": 0}], "
            + "\"updates\": [{\"action\": \"set-properties\", \"updates\": {\"k\": \"v\"}}]}");
    assertThat(stale.status()).isEqualTo(409);

    List<String> after = actions(admin.get(orgPath("/audit")).body());
    // Only the one successful commit was added.
    assertThat(after).hasSize(before.size() + 1).startsWith("table.commit");
    assertThat(after.subList(1, after.size())).isEqualTo(before);
  }

  @Test
  void aMultiTableTransactionRecordsEveryTableUnderOneRequest() {
    RESTCatalog engine = floe.catalog(org, Map.of());
    engine.createNamespace(Namespace.of("sales"));
    engine.createTable(TableIdentifier.of("sales", "a"), SCHEMA);
    engine.createTable(TableIdentifier.of("sales", "b"), SCHEMA);

    IcebergHttp.Reply committed = new IcebergHttp(floe, org).post("/transactions/commit",
        "{\"table-changes\": [" + change("a") + ", " + change("b") + "]}");
    assertThat(committed.status()).isEqualTo(204);

    JsonNode log = admin.get(orgPath("/audit?action=table.commit")).body();
    assertThat(targets(log)).containsExactlyInAnyOrder("table sales.a", "table sales.b");
    assertThat(log.path("entries").get(0).path("request_id").asText())
        .isEqualTo(log.path("entries").get(1).path("request_id").asText());
  }

  @Test
  void onlyAdminsReadTheLog() {
    ManagementApi member = access.as(access.newUser("ada"));
    ManagementApi.Reply refused = member.get(orgPath("/audit"));
    assertThat(refused.status()).isEqualTo(403);
    assertThat(refused.detail()).contains("Only org admins");
    TestFloe.Org elsewhere = floe.newOrg();
    assertThat(access.as(elsewhere).get(orgPath("/audit")).status()).isEqualTo(404);
    assertThat(new ManagementApi(floe.server().port(), "ema_" + "0".repeat(64))
        .get(orgPath("/audit")).status()).isEqualTo(401);
  }

  @Test
  void pagesAreStableWhileChangesAreMade() {
    List<String> users = new ArrayList<>();
    for (int i = 1; i <= 7; i++) {
      access.create("users", "user-" + i);
      users.add("user-" + i);
    }
    JsonNode first = admin.get(orgPath("/audit?limit=3")).body();
    assertThat(names(first)).containsExactly("user-7", "user-6", "user-5");
    access.create("users", "user-8");
    access.create("users", "user-9");

    JsonNode second = admin.get(orgPath("/audit?limit=3&page_token="
        + first.path("next_page_token").asText())).body();
    JsonNode third = admin.get(orgPath("/audit?limit=3&page_token="
        + second.path("next_page_token").asText())).body();

    assertThat(names(second)).containsExactly("user-4", "user-3", "user-2");
    assertThat(names(third)).containsExactly("user-1");
    assertThat(third.path("next_page_token").isNull()).isTrue();
    assertThat(names(admin.get(orgPath("/audit?limit=3")).body()))
        .containsExactly("user-9", "user-8", "user-7");
  }

  @Test
  void filtersNarrowTheLog() throws Exception {
    String ada = access.create("users", "ada");
    access.create("users", "bob");
    admin.post(orgPath("/iceberg/namespaces"), Map.of("name", "sales"));
    access.grant(ada, "sales", null, "write");
    try (RESTCatalog engine = floe.catalog(access.tokenFor(ada), Map.of())) {
      engine.createTable(TableIdentifier.of("sales", "orders"), SCHEMA);
      engine.createTable(TableIdentifier.of("sales", "refunds"), SCHEMA);
    }
    JsonNode all = admin.get(orgPath("/audit")).body();

    assertThat(actions(admin.get(orgPath("/audit?principal=" + ada)).body()))
        .containsExactly("table.create", "table.create");
    assertThat(targets(admin.get(orgPath("/audit?action=principal.create")).body()))
        .containsExactly("principal bob", "principal ada");
    assertThat(actions(admin.get(orgPath("/audit?target=sales")).body()))
        .containsExactly("grant.create", "namespace.create");
    assertThat(targets(admin.get(orgPath("/audit?target_kind=table")).body()))
        .containsExactly("table sales.refunds", "table sales.orders");
    assertThat(actions(admin.get(orgPath("/audit?target=sales.orders&action=table.create"))
        .body())).containsExactly("table.create");

    // since is inclusive and until exclusive, at the entries' own times.
    String grantedAt = entry(all, "grant.create").path("recorded_at").asText();
    assertThat(actions(admin.get(orgPath("/audit?since=" + encode(grantedAt))).body()))
        .containsExactly("table.create", "table.create", "token.issue", "grant.create");
    assertThat(actions(admin.get(orgPath("/audit?until=" + encode(grantedAt))).body()))
        .containsExactly("namespace.create", "principal.create", "principal.create");
    assertThat(actions(admin.get(orgPath("/audit?since=2000-01-01T00:00:00Z&until="
        + "2000-01-02T00:00:00%2B01:00")).body())).isEmpty();
  }

  @Test
  void operatorsChangesAreRecordedInTheBootstrapOrg() throws Exception {
    ManagementApi operator = new ManagementApi(floe.server().port(),
        Files.readString(floe.settings().adminTokenFile()).strip());
    String name = "audited-" + org.warehouse();
    assertThat(operator.post("/orgs", Map.of("name", name)).status()).isEqualTo(201);
    assertThat(operator.patch("/orgs/" + name, Map.of("iceberg_enabled", false)).status())
        .isEqualTo(200);

    JsonNode log = operator.get("/orgs/my-org/audit?target=" + name).body();
    assertThat(actions(log)).containsExactly("org.set_iceberg", "org.create");
    assertThat(entry(log, "org.set_iceberg").path("details").path("iceberg_enabled").asBoolean())
        .isFalse();
    assertThat(principals(log)).containsOnly("my-org-admin");
  }

  @Test
  void floeAuditListsTheLogOnTheCommandLine() {
    access.create("users", "ada");
    access.create("users", "bob");
    String url = "http://127.0.0.1:" + floe.server().port();

    String text = cli("audit", "--url", url, "--token", org.token(), "--org", org.warehouse(),
        "--action", "principal.create", "--limit", "1");
    assertThat(text).contains("principal.create").contains("principal bob")
        .doesNotContain("principal ada").contains("--page-token");
    String json = cli("audit", "--url", url, "--token", org.token(), "--org", org.warehouse(),
        "--limit", "1", "--all", "-o", "json", "--since", "1h");
    assertThat(json).contains("\"target_name\" : \"ada\"").contains("\"target_name\" : \"bob\"");
  }

  private static String change(String table) {
    return "{\"identifier\": {\"namespace\": [\"sales\"], \"name\": \"" + table + "\"}, "
        + "\"requirements\": [], \"updates\": [{\"action\": \"set-properties\", "
        + "\"updates\": {\"k\": \"v\"}}]}";
  }

  private String orgPath(String path) {
    return "/orgs/" + org.warehouse() + path;
  }

  private static String cli(String... args) {
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    int exit = FloeCommand.commandLine().setOut(new PrintWriter(out))
        .setErr(new PrintWriter(err)).execute(args);
    assertThat(exit).as(err.toString()).isZero();
    return out.toString();
  }

  private static String encode(String value) {
    return URLEncoder.encode(value, StandardCharsets.UTF_8);
  }

  private static JsonNode entry(JsonNode log, String action) {
    for (JsonNode entry : log.path("entries")) {
      if (entry.path("action").asText().equals(action)) {
        return entry;
      }
    }
    throw new AssertionError("no " + action + " in " + log);
  }

  private static List<String> actions(JsonNode log) {
    List<String> actions = new ArrayList<>();
    log.path("entries").forEach(entry -> actions.add(entry.path("action").asText()));
    return actions;
  }

  private static List<String> targets(JsonNode log) {
    List<String> targets = new ArrayList<>();
    log.path("entries").forEach(entry -> targets.add(entry.path("target_kind").asText() + " "
        + entry.path("target_name").asText()));
    return targets;
  }

  private static List<String> principals(JsonNode log) {
    List<String> names = new ArrayList<>();
    log.path("entries").forEach(entry -> names.add(entry.path("principal_name").asText()));
    return names;
  }

  private static List<String> names(JsonNode log) {
    List<String> names = new ArrayList<>();
    log.path("entries").forEach(entry -> names.add(entry.path("target_name").asText()));
    return names;
  }
}
