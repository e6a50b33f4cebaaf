package io.floe.bootstrap;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;
import org.apache.iceberg.Schema;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.rest.RESTCatalog;
import org.apache.iceberg.types.Types;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Hostile requests, each shown refused with the org's catalog and bucket exactly as they were:
 * other orgs, bad tokens, borrowed grants, crafted names, commits and registrations that point
 * outside the table, and bodies that are too large or not JSON.
 */
class SecuritySuiteTest {
  private static final Schema SCHEMA =
      new Schema(Types.NestedField.required(1, "id", Types.LongType.get()));

  @TempDir static Path directory;
  private static TestFloe floe;
  private TestFloe.Org org;
  private TestFloe.Org otherOrg;
  private OrgAccess access;
  private IcebergHttp admin;

  @BeforeAll
  static void start() {
    floe = TestFloe.start(directory);
  }

  @AfterAll
  static void stop() {
    floe.close();
  }

  @BeforeEach
  void orgs() {
    org = floe.newOrg();
    otherOrg = floe.newOrg();
    access = new OrgAccess(floe, org);
    admin = new IcebergHttp(floe, org);
    RESTCatalog catalog = floe.catalog(org, Map.of());
    catalog.createNamespace(Namespace.of("sales"));
    catalog.createTable(TableIdentifier.of("sales", "orders"), SCHEMA);
    catalog.createTable(TableIdentifier.of("sales", "refunds"), SCHEMA);
    RESTCatalog other = floe.catalog(otherOrg, Map.of());
    other.createNamespace(Namespace.of("secret"));
    other.createTable(TableIdentifier.of("secret", "plans"), SCHEMA);
  }

  @Test
  void anotherOrgsWarehouseAndTablesDoNotExistForACaller() {
    IcebergHttp intruder = new IcebergHttp(floe, new TestFloe.Org(org.warehouse(),
        otherOrg.token()));
    refusedWithNothingChanged(() -> List.of(
        intruder.get("/namespaces"),
        intruder.get("/namespaces/sales/tables/orders"),
        intruder.post("/namespaces/sales/tables/orders", setProperty("owner", "intruder")),
        intruder.delete("/namespaces/sales/tables/orders"),
        intruder.post("/namespaces", "{\"namespace\":[\"planted\"]}")), 404);
  }

  @Test
  void revokedExpiredTamperedAndUnknownTokensAre401() throws Exception {
    String user = access.create("users", "temp");
    TestFloe.Org token = access.tokenFor(user);
    access.grant(user, "sales", null, "write");
    assertThat(new IcebergHttp(floe, token).get("/namespaces").status()).isEqualTo(200);
    ManagementApi.Reply listed = access.admin().get("/orgs/" + org.warehouse()
        + "/tokens?principal_id=" + user);
    assertThat(listed.body().get(0).path("last_used_at").asText()).isNotEmpty();
    assertThat(listed.body().get(0).has("token")).isFalse();

    String tampered = token.token().substring(0, token.token().length() - 1)
        + (token.token().endsWith("0") ? "1" : "0");
    ManagementApi.Reply shortLived = access.admin().post("/orgs/" + org.warehouse() + "/tokens",
        Map.of("principal_id", user, "expires_in_seconds", 1));
    assertThat(shortLived.status()).isEqualTo(201);
    Thread.sleep(1_500);
    String tokenId = listed.body().get(0).path("id").asText();
    assertThat(access.admin().delete("/orgs/" + org.warehouse() + "/tokens/" + tokenId).status())
        .isEqualTo(200);

    for (String bad : List.of(token.token(), tampered,
        shortLived.body().path("token").asText(), "ema_" + "f".repeat(64), "", "Basic x")) {
      IcebergHttp caller = new IcebergHttp(floe, new TestFloe.Org(org.warehouse(), bad));
      refusedWithNothingChanged(() -> List.of(caller.get("/namespaces"),
          caller.post("/namespaces/sales/tables/orders", setProperty("owner", "x")),
          caller.delete("/namespaces/sales/tables/orders")), 401);
    }
    assertThat(new ManagementApi(floe.server().port(), token.token())
        .get("/orgs/" + org.warehouse() + "/members").status()).isEqualTo(401);
  }

  @Test
  void aGrantOnOneTableIsRefusedForItsNeighbour() {
    String user = access.create("users", "narrow");
    IcebergHttp caller = new IcebergHttp(floe, access.tokenFor(user));
    access.grant(user, "sales", "orders", "manage");
    refusedWithNothingChanged(() -> List.of(
        caller.get("/namespaces/sales/tables/refunds"),
        caller.post("/namespaces/sales/tables/refunds", setProperty("owner", "x")),
        caller.delete("/namespaces/sales/tables/refunds"),
        caller.post("/tables/rename", "{\"source\":{\"namespace\":[\"sales\"],\"name\":"
            + "\"refunds\"},\"destination\":{\"namespace\":[\"sales\"],\"name\":\"gone\"}}")),
        404);
  }

  @Test
  void craftedNamesAreRefused() {
    refusedWithNothingChanged(() -> List.of(
        admin.post("/namespaces", "{\"namespace\":[\"..\"]}"),
        admin.post("/namespaces", "{\"namespace\":[\"a/b\"]}"),
        admin.post("/namespaces", "{\"namespace\":[\"a%2Fb\"]}"),
        admin.post("/namespaces", "{\"namespace\":[\"bad\\u0001name\"]}"),
        admin.post("/namespaces", "{\"namespace\":[\"bad\\nname\"]}"),
        admin.post("/namespaces/sales/tables",
            "{\"name\":\"..\",\"schema\":{\"type\":\"struct\",\"fields\":[]}}"),
        admin.post("/namespaces/sales/tables",
            "{\"name\":\"x/../../y\",\"schema\":{\"type\":\"struct\",\"fields\":[]}}"),
        admin.post("/namespaces/sales/tables",
            "{\"name\":\"x\\u0000\",\"schema\":{\"type\":\"struct\",\"fields\":[]}}")), 400);
    refusedWithNothingChanged(() -> List.of(
        admin.get("/namespaces/..%2F..%2Fsales/tables/orders"),
        admin.get("/namespaces/sales%2F..%2Fsales/tables/orders"),
        admin.get("/namespaces/sales/tables/..%2Forders")), 400, 404);
  }

  @Test
  void commitsThatPointOutsideTheTableAreRefused() {
    String outside = "file:///tmp/floe-elsewhere";
    refusedWithNothingChanged(() -> List.of(
        admin.post("/namespaces/sales/tables/orders",
            setProperty("write.data.path", outside + "/data")),
        admin.post("/namespaces/sales/tables/orders",
            setProperty("write.metadata.path", outside + "/metadata")),
        admin.post("/namespaces/sales/tables/orders",
            setProperty("write.data.path", location("refunds") + "/data")),
        admin.post("/namespaces/sales/tables/orders", "{\"requirements\":[],\"updates\":[{"
            + "\"action\":\"add-snapshot\",\"snapshot\":{\"snapshot-id\":42,"
            + "\"timestamp-ms\":" + Instant.now().toEpochMilli() + ",\"manifest-list\":\""
            + outside + "/snap-42.avro\",\"summary\":{\"operation\":\"append\"},"
            + "\"schema-id\":0}}]}")), 403);
    // A request to move the table is not obeyed: the table stays where the server put it.
    String before = location("orders");
    admin.post("/namespaces/sales/tables/orders", "{\"requirements\":[],\"updates\":[{"
        + "\"action\":\"set-location\",\"location\":\"" + outside + "\"}]}");
    assertThat(location("orders")).isEqualTo(before);
  }

  @Test
  void registeringMetadataOutsideTheOrgsPrefixesIsRefused() {
    String foreign = new IcebergHttp(floe, otherOrg).get("/namespaces/secret/tables/plans")
        .body().path("metadata-location").asText();
    refusedWithNothingChanged(() -> List.of(
        admin.post("/namespaces/sales/register",
            "{\"name\":\"stolen\",\"metadata-location\":\"" + foreign + "\"}"),
        admin.post("/namespaces/sales/register",
            "{\"name\":\"passwd\",\"metadata-location\":\"file:///etc/passwd\"}"),
        admin.post("/namespaces/sales/register", "{\"name\":\"up\",\"metadata-location\":\""
            + location("orders") + "/../../../x.metadata.json\"}")), 400, 403);
  }

  @Test
  void oversizedAndMalformedBodiesAreRefused() {
    String huge = "{\"namespace\":[\"x\"],\"properties\":{\"k\":\""
        + "a".repeat(9 * 1024 * 1024) + "\"}}";
    refusedWithNothingChanged(() -> List.of(admin.post("/namespaces", huge)), 413);
    refusedWithNothingChanged(() -> List.of(
        admin.post("/namespaces", "{not json"),
        admin.post("/namespaces", "[]"),
        admin.post("/namespaces/sales/tables/orders", "{\"updates\":[{\"action\":\"nope\"}]}"),
        admin.post("/namespaces/sales/tables/orders", "\u0000\u0001")), 400, 422);
    ManagementApi.Reply grant = new ManagementApi(floe.server().port(), org.token())
        .post("/orgs/" + org.warehouse() + "/grants", "not an object");
    assertThat(grant.status()).isIn(400, 422);
    assertThat(grant.detail()).isNotBlank();
  }

  @Test
  void theAuditLogIsTheAdminsAloneAndNamesNoSecret() {
    String writer = access.create("users", "writer");
    access.grant(writer, "sales", null, "write");
    ManagementApi.Reply issued = access.admin().post("/orgs/" + org.warehouse() + "/tokens",
        Map.of("principal_id", writer));
    TestFloe.Org writerToken = new TestFloe.Org(org.warehouse(),
        issued.body().path("token").asText());
    String path = "/orgs/" + org.warehouse() + "/audit";
    assertThat(access.as(writerToken).get(path).status()).isEqualTo(403);
    assertThat(access.as(otherOrg).get(path).status()).isEqualTo(404);
    assertThat(access.as(new TestFloe.Org(org.warehouse(), null)).get(path).status())
        .isEqualTo(401);
    assertThat(auditLog()).contains("token.issue")
        .doesNotContain(issued.body().path("token").asText());
  }

  private String location(String table) {
    return admin.get("/namespaces/sales/tables/" + table).body().path("metadata")
        .path("location").asText();
  }

  private static String setProperty(String key, String value) {
    return "{\"requirements\":[],\"updates\":[{\"action\":\"set-properties\",\"updates\":{\""
        + key + "\":\"" + value + "\"}}]}";
  }

  /**
   * Sends the requests and shows each refused with one of {@code statuses}, nothing changed and
   * nothing recorded in the org's audit log.
   */
  private void refusedWithNothingChanged(Supplier<List<IcebergHttp.Reply>> requests,
      Integer... statuses) {
    Path bucket = directory.resolve("buckets").resolve(org.warehouse());
    CatalogState before = CatalogState.of(admin, bucket);
    String auditBefore = auditLog();
    for (IcebergHttp.Reply reply : requests.get()) {
      assertThat(reply.status()).as(reply.body().toString()).isIn((Object[]) statuses);
    }
    assertThat(CatalogState.of(admin, bucket)).isEqualTo(before);
    assertThat(auditLog()).isEqualTo(auditBefore);
  }

  private String auditLog() {
    ManagementApi.Reply log = access.admin().get("/orgs/" + org.warehouse() + "/audit");
    assertThat(log.status()).isEqualTo(200);
    return log.body().toString();
  }
}
