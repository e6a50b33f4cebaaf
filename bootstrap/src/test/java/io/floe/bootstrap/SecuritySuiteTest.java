package io.floe.bootstrap;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.MissingNode;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.function.Supplier;
import org.apache.iceberg.Schema;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.rest.RESTCatalog;
import org.apache.iceberg.types.Types;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Hostile requests, each shown refused with the org's catalog and bucket exactly as they were:
 * other orgs, bad tokens, borrowed grants and idempotency keys, crafted names, commits and
 * registrations that point outside the table, transactions that are only partly allowed, and
 * bodies that are too large, not JSON, or hold what Floe cannot keep.
 */
@FloeServerTest
class SecuritySuiteTest {
  private static final com.fasterxml.jackson.databind.ObjectMapper JSON =
      new com.fasterxml.jackson.databind.ObjectMapper();
  private static final Schema SCHEMA =
      new Schema(Types.NestedField.required(1, "id", Types.LongType.get()));

  private static TestFloe floe;
  private TestFloe.Org org;
  private TestFloe.Org otherOrg;
  private OrgAccess access;
  private IcebergHttp admin;

  @BeforeAll
  static void start(TestFloe shared) {
    floe = shared;
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
    // Past its second on the server's clock: the token has expired, without waiting for it.
    floe.clock().advance(Duration.ofSeconds(2));
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

  /**
   * Percent-encoded, look-alike and otherwise non-canonical spellings of a way out of the table:
   * every location a client can send is refused with 400 before anything is written, and no
   * file appears outside the table, in the org's bucket or anywhere else.
   */
  @Test
  void encodedWaysOutOfTheTableAreRefusedBeforeAnythingIsWritten() {
    String root = location("orders");
    // orders-<id> <- <namespace prefix> <- <org> <- buckets <- the server's directory
    String up = "/%2e%2e".repeat(4);
    List<String> hostile = List.of(
        root + up + "/escape/x",
        root + "/%2E%2E/%2e%2E/%2E%2e/%2E%2E/escape/x",
        root + "/%252e%252e/%252e%252e/%252e%252e/%252e%252e/escape/x",
        root + "/..%2f..%2f..%2f..%2fescape/x",
        root + "/%c0%ae%c0%ae/%c0%ae%c0%ae/%c0%ae%c0%ae/%c0%ae%c0%ae/escape/x",
        root + "/\uFF0E\uFF0E/\uFF0E\uFF0E/\uFF0E\uFF0E/\uFF0E\uFF0E/escape/x",
        root + "/..\\..\\..\\..\\escape/x",
        root + "/x;/../../../../escape/x",
        root + "/x?/../../../../escape/x",
        root + "/x#/../../../../escape/x",
        root + "//escape/x",
        root + "/escape/x/.",
        root.replace("file:///", "file://localhost:1/") + "/escape/x",
        root.replace("file:///", "FILE:///") + "/escape/x");
    for (String location : hostile) {
      refusedWithNothingChanged(() -> List.of(
          admin.post("/namespaces/sales/tables/orders",
              setProperty("write.metadata.path", location)),
          admin.post("/namespaces/sales/tables/orders", setProperty("write.data.path", location)),
          admin.post("/namespaces/sales/tables/orders",
              setProperty("write.object-storage.path", location)),
          admin.post("/namespaces/sales/tables/orders",
              setProperty("write.folder-storage.path", location)),
          admin.post("/namespaces/sales/tables/orders", addSnapshot(location + "/snap.avro")),
          admin.post("/namespaces/sales/tables/orders", setStatistics(location + "/s.puffin")),
          admin.post("/namespaces/sales/tables/orders",
              setPartitionStatistics(location + "/p.parquet")),
          admin.post("/namespaces/sales/tables",
              createWithProperty("planted", "write.metadata.path", location)),
          admin.post("/namespaces/sales/tables",
              createWithProperty("planted", "write.data.path", location)),
          register("up", location + "/00000-x.metadata.json")), 400);
    }
    assertThat(floe.directory().resolve("escape")).doesNotExist();
  }

  @Test
  void aStagedCreateCannotReachIntoAnotherOrgsTable() {
    String ours = location("orders");
    String theirs = new IcebergHttp(floe, otherOrg).get("/namespaces/secret/tables/plans").body()
        .path("metadata").path("location").asText();
    // From our namespace prefix up to the directory of all buckets, then down into theirs.
    String namespacePrefix = ours.substring(0, ours.lastIndexOf('/'));
    String intoTheirs = namespacePrefix + "/%2e%2e/%2e%2e/" + theirs.substring(
        theirs.indexOf("/" + otherOrg.warehouse() + "/") + 1);
    Path theirBucket = floe.bucketDirectory(otherOrg);
    IcebergHttp otherAdmin = new IcebergHttp(floe, otherOrg);
    CatalogState before = CatalogState.of(otherAdmin, theirBucket);
    refusedWithNothingChanged(() -> List.of(
        admin.post("/namespaces/sales/tables/stolen", stagedCreate(intoTheirs)),
        admin.post("/namespaces/sales/tables/stolen", stagedCreate(
            intoTheirs.replace("%2e", "%2E"))),
        admin.post("/namespaces/sales/tables/stolen", stagedCreate(theirs))), 400, 403);
    assertThat(CatalogState.of(otherAdmin, theirBucket)).isEqualTo(before);
  }

  /**
   * Register reads a file only inside the namespace's own prefix, and a missing file, a file that
   * is not metadata, a directory, and a link to another org's metadata all get one answer: the
   * status and message say nothing about what is there.
   */
  @Test
  void registerIsNoOracleForWhatExistsOnTheServer() throws Exception {
    String ours = location("orders");
    String namespacePrefix = ours.substring(0, ours.lastIndexOf('/'));
    Path namespaceDir = Path.of(java.net.URI.create(namespacePrefix));
    String theirs = new IcebergHttp(floe, otherOrg).get("/namespaces/secret/tables/plans").body()
        .path("metadata-location").asText();
    String foreignRelative = namespacePrefix + "/%2e%2e/%2e%2e/" + theirs.substring(
        theirs.indexOf("/" + otherOrg.warehouse() + "/") + 1);
    java.nio.file.Files.writeString(namespaceDir.resolve("garbage.metadata.json"), "not json");
    java.nio.file.Files.createDirectories(namespaceDir.resolve("folder.metadata.json"));
    java.nio.file.Files.createSymbolicLink(namespaceDir.resolve("link.metadata.json"),
        Path.of(java.net.URI.create(theirs)));

    List<IcebergHttp.Reply> inside = List.of(
        register("a", namespacePrefix + "/missing.metadata.json"),
        register("b", namespacePrefix + "/garbage.metadata.json"),
        register("c", namespacePrefix + "/folder.metadata.json"),
        register("d", namespacePrefix + "/link.metadata.json"));
    assertThat(inside).extracting(IcebergHttp.Reply::status).containsOnly(400);
    assertThat(inside).extracting(reply -> reply.body().path("error").path("message").asText()
        .replaceAll("'[^']*'", "'<location>'")).as("one message for all").hasSize(4)
        .containsOnly(inside.get(0).body().path("error").path("message").asText()
            .replaceAll("'[^']*'", "'<location>'"));

    IcebergHttp.Reply existing = register("e", foreignRelative);
    IcebergHttp.Reply missing = register("f", foreignRelative.replace(".metadata.json",
        "-no.metadata.json"));
    assertThat(existing.status()).isEqualTo(missing.status()).isEqualTo(400);
    assertThat(existing.errorType()).isEqualTo(missing.errorType());
    assertThat(new IcebergHttp(floe, org).get("/namespaces/sales/tables").body()
        .path("identifiers")).hasSize(2);
  }

  @Test
  void oversizedAndMalformedBodiesAreRefused() {
    refusedWithNothingChanged(() -> List.of(announceOversizedNamespaceCreate()), 413);
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
  void anIdempotencyKeyReplaysOnlyToItsOwnerAndOnlyTheRequestItCameWith() {
    String writerId = access.create("users", "writer");
    access.grant(writerId, "sales", null, "write");
    IcebergHttp writer = new IcebergHttp(floe, access.tokenFor(writerId));
    String readerId = access.create("users", "reader");
    access.grant(readerId, "sales", null, "read");
    IcebergHttp reader = new IcebergHttp(floe, access.tokenFor(readerId));
    IcebergHttp stranger = new IcebergHttp(floe, access.newUser("stranger"));
    String key = "0190b6c4-7d1e-7b4c-9a4e-5f0c2d7e9a11";
    String commit = setProperty("owner", "writer");
    assertThat(writer.post("/namespaces/sales/tables/orders", commit, key).status())
        .isEqualTo(200);

    refusedWithNothingChanged(() -> List.of(
        reader.post("/namespaces/sales/tables/orders", commit, key)), 403);
    refusedWithNothingChanged(() -> List.of(
        stranger.post("/namespaces/sales/tables/orders", commit, key)), 404);
    refusedWithNothingChanged(() -> List.of(
        writer.post("/namespaces/sales/tables/orders", setProperty("owner", "other"), key)), 422);
    // Another writer's key is not this writer's: the same key makes this writer's own change.
    String otherWriterId = access.create("users", "other-writer");
    access.grant(otherWriterId, "sales", null, "write");
    assertThat(new IcebergHttp(floe, access.tokenFor(otherWriterId))
        .post("/namespaces/sales/tables/orders", setProperty("owner", "other-writer"), key)
        .body().path("metadata").path("properties").path("owner").asText())
        .isEqualTo("other-writer");
    // A create with a key already used for a create of another name: refused, not replayed.
    String admins = "0190b6c4-7d1e-7b4c-9a4e-5f0c2d7e9a12";
    assertThat(admin.post("/namespaces", "{\"namespace\":[\"a\"]}", admins).status())
        .isEqualTo(200);
    refusedWithNothingChanged(() -> List.of(
        admin.post("/namespaces", "{\"namespace\":[\"b\"]}", admins)), 422);
    // The same request again is the replay it is meant for: answered, and nothing written twice.
    refusedWithNothingChanged(() -> List.of(
        writer.post("/namespaces/sales/tables/orders", commit, key)), 200);
  }

  @Test
  void aRefusedTransactionWritesNoMetadataForTheTableItWasAllowedToChange() {
    String user = access.create("users", "half-writer");
    access.grant(user, "sales", null, "read");
    access.grant(user, "sales", "orders", "write");
    IcebergHttp caller = new IcebergHttp(floe, access.tokenFor(user));
    assertThat(caller.post("/namespaces/sales/tables/orders", setProperty("a", "b")).status())
        .isEqualTo(200);
    // orders comes first: it may be changed, refunds may not, and nothing may be written.
    refusedWithNothingChanged(() -> List.of(caller.post("/transactions/commit",
        "{\"table-changes\":[" + tableChange("orders") + "," + tableChange("refunds") + "]}")),
        403);
  }

  @Test
  void namespacePropertiesAreTheManagersNotTheWriters() {
    String writerId = access.create("users", "prop-writer");
    access.grant(writerId, "sales", null, "write");
    IcebergHttp writer = new IcebergHttp(floe, access.tokenFor(writerId));
    String body = "{\"updates\":{\"comment\":\"hijacked\"}}";
    refusedWithNothingChanged(() -> List.of(
        writer.post("/namespaces/sales/properties", body)), 403);
    String managerId = access.create("users", "prop-manager");
    access.grant(managerId, "sales", null, "manage");
    assertThat(new IcebergHttp(floe, access.tokenFor(managerId))
        .post("/namespaces/sales/properties", body).status()).isEqualTo(200);
    assertThat(access.admin().get(namespaces() + "/sales").body().path("description").asText())
        .isEqualTo("hijacked");
  }

  @Test
  void aReaderOfOneTableCountsOnlyTheTablesItMaySee() {
    String user = access.create("users", "one-table");
    access.grant(user, "sales", "orders", "read");
    ManagementApi narrow = access.as(access.tokenFor(user));
    assertThat(narrow.get(namespaces()).body().get(0).path("table_count").asInt()).isEqualTo(1);
    assertThat(narrow.get(namespaces() + "/sales").body().path("table_count").asInt())
        .isEqualTo(1);
    assertThat(narrow.get(namespaces() + "/paginated?sort=tables").body().path("items").get(0)
        .path("table_count").asInt()).isEqualTo(1);
    assertThat(access.admin().get(namespaces() + "/sales").body().path("table_count").asInt())
        .isEqualTo(2);
  }

  @Test
  void inputThatCannotBeKeptIsRefusedNamingWhereItIs() {
    String user = access.create("users", "far");
    IcebergHttp.Reply nul = admin.post("/namespaces",
        "{\"namespace\":[\"kept\"],\"properties\":{\"owner\":\"a\\u0000b\"}}");
    assertThat(nul.status()).isEqualTo(400);
    assertThat(nul.message()).contains("/properties/owner").contains("NUL");
    refusedWithNothingChanged(() -> List.of(
        admin.get("/namespaces?pageToken=%00"),
        admin.get("/namespaces/sales/tables?pageToken=a%00"),
        // Page tokens whose base64 decodes to a NUL, to a byte that is no UTF-8, and to a
        // surrogate encoded on its own.
        admin.get("/namespaces?pageToken=AA"),
        admin.get("/namespaces/sales/tables?pageToken=_w"),
        admin.get("/namespaces/sales/views?pageToken=7aCA"),
        admin.post("/namespaces/sales/properties", "{\"updates\":{\"k\":\"\\ud800\"}}"),
        admin.post("/namespaces/sales/tables/orders", "123"),
        admin.post("/namespaces/sales/tables/orders", "[]"),
        admin.post("/namespaces/sales/tables/orders", "\"x\""),
        admin.post("/namespaces/sales/tables/orders", update(
            "{\"action\":\"set-default-spec\",\"spec-id\":99}")),
        admin.post("/namespaces/sales/tables/orders", update(
            "{\"action\":\"set-default-sort-order\",\"sort-order-id\":99}")),
        admin.post("/namespaces/sales/tables/orders", update(
            "{\"action\":\"assign-uuid\",\"uuid\":\"not-a-uuid\"}")),
        admin.post("/namespaces/sales/tables/orders", update(
            "{\"action\":\"assign-uuid\",\"uuid\":\"" + UUID.randomUUID() + "\"}")),
        IcebergHttp.Reply.of(access.admin().get(namespaces() + "/paginated?search=%00")),
        IcebergHttp.Reply.of(access.admin().post(namespaces(),
            Map.of("name", "described", "description", "a\u0000b"))),
        IcebergHttp.Reply.of(access.admin().post("/orgs/" + org.warehouse() + "/tokens",
            Map.of("principal_id", user, "expires_at", "+999999999-12-31T23:59:59Z")))),
        400, 422);
  }

  /**
   * A 1.7 MB createTable whose one column nests 850 lists around a 14-deep tree of maps: once
   * iceberg-core built it, indexing its field names took gigabytes and ran the server out of
   * memory, and the error killed the thread that keeps its caches true. Wherever a schema comes
   * in, it is refused before that, nothing is written, and the server goes on taking writes.
   */
  @Test
  void aSchemaThatWouldTakeGigabytesToIndexIsRefusedWhereverItComesInAndWritesGoOn() {
    String deep = HostileSchemas.listsAroundMaps(850, 14);
    String createTable = HostileSchemas.createTable("deep", deep);
    assertThat(createTable).hasSizeGreaterThan(1_700_000);
    String addSchema = "{\"action\": \"add-schema\", \"schema\": " + deep + "}";
    refusedWithNothingChanged(() -> List.of(
        admin.post("/namespaces/sales/tables", createTable),
        admin.post("/namespaces/sales/tables", createTable.replace("{\"name\": \"deep\", ",
            "{\"name\": \"deep\", \"stage-create\": true, ")),
        admin.post("/namespaces/sales/tables/orders", "{\"requirements\": [], \"updates\": ["
            + addSchema + "]}"),
        admin.post("/transactions/commit", "{\"table-changes\": [{\"identifier\": {"
            + "\"namespace\": [\"sales\"], \"name\": \"orders\"}, \"requirements\": [], "
            + "\"updates\": [" + addSchema + "]}]}"),
        admin.post("/namespaces/sales/views", "{\"name\": \"deep\", \"schema\": " + deep
            + ", \"view-version\": {\"version-id\": 1, \"timestamp-ms\": 1, \"schema-id\": 0, "
            + "\"summary\": {}, \"default-namespace\": [\"sales\"], \"representations\": []}}")),
        400);
    IcebergHttp.Reply refused = admin.post("/namespaces/sales/tables", createTable);
    assertThat(refused.errorType()).isEqualTo("MetadataLimitException");
    assertThat(refused.message()).isEqualTo("The request body nests schema fields more than 32 "
        + "levels deep, the most this server accepts");

    assertThat(admin.post("/namespaces/sales/tables/orders", setProperty("after", "deep"))
        .status()).isEqualTo(200);
    assertThat(admin.post("/namespaces/sales/tables", "{\"name\": \"after_deep\", \"schema\": "
        + "{\"type\": \"struct\", \"fields\": [{\"id\": 1, \"name\": \"x\", \"required\": false, "
        + "\"type\": \"int\"}]}}").status()).isEqualTo(200);
  }

  /**
   * A metadata file of the namespace that holds such a schema (written by anyone with write
   * access to the bucket) is refused too when it is registered: the limits apply to files read,
   * not only to request bodies.
   */
  @Test
  void registeringAMetadataFileWithSuchASchemaIsRefused() throws Exception {
    String ours = location("orders");
    Path namespaceDir = Path.of(java.net.URI.create(ours.substring(0, ours.lastIndexOf('/'))));
    com.fasterxml.jackson.databind.node.ObjectNode metadata =
        (com.fasterxml.jackson.databind.node.ObjectNode) JSON.readTree(java.nio.file.Files
            .readString(Path.of(java.net.URI.create(admin.get("/namespaces/sales/tables/orders")
                .body().path("metadata-location").asText()))));
    metadata.set("schemas", JSON.createArrayNode().add(JSON.readTree(
        HostileSchemas.listsAroundMaps(850, 14))));
    metadata.put("current-schema-id", 0);
    java.nio.file.Files.writeString(namespaceDir.resolve("deep.metadata.json"),
        JSON.writeValueAsString(metadata));
    refusedWithNothingChanged(() -> List.of(register("deep",
        namespaceDir.toUri().toString().replaceAll("/$", "") + "/deep.metadata.json")), 400);
  }

  @Test
  void aFarFutureDurationIsRefused() {
    assertThat(access.admin().post("/orgs/" + org.warehouse() + "/repos",
        Map.of("name", "weather")).status()).isEqualTo(201);
    refusedWithNothingChanged(() -> List.of(
        IcebergHttp.Reply.of(access.admin().post("/orgs/" + org.warehouse()
            + "/repos/weather/gc", Map.of("dry_run", false,
            "grace_seconds", 100_000_000_000_000_000L))),
        IcebergHttp.Reply.of(access.admin().post("/orgs/" + org.warehouse()
            + "/repos/weather/gc", Map.of("grace_seconds", Long.MAX_VALUE)))), 400);
  }

  private String namespaces() {
    return "/orgs/" + org.warehouse() + "/iceberg/namespaces";
  }

  private static String tableChange(String table) {
    return "{\"identifier\":{\"namespace\":[\"sales\"],\"name\":\"" + table + "\"},"
        + "\"requirements\":[],\"updates\":[{\"action\":\"set-properties\","
        + "\"updates\":{\"changed\":\"yes\"}}]}";
  }

  private static String update(String update) {
    return "{\"requirements\":[],\"updates\":[" + update + "]}";
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

  @Test
  void theCatalogCheckIsTheAdminsAloneAndChangesNothing() {
    String writer = access.create("users", "checker");
    access.grant(writer, "sales", null, "write");
    ManagementApi.Reply issued = access.admin().post("/orgs/" + org.warehouse() + "/tokens",
        Map.of("principal_id", writer));
    TestFloe.Org writerToken = new TestFloe.Org(org.warehouse(),
        issued.body().path("token").asText());
    String path = "/orgs/" + org.warehouse() + "/check";
    String auditBefore = auditLog();
    assertThat(access.as(writerToken).get(path).status()).isEqualTo(403);
    assertThat(access.as(otherOrg).get(path).status()).isEqualTo(404);
    assertThat(access.as(new TestFloe.Org(org.warehouse(), null)).get(path).status())
        .isEqualTo(401);
    ManagementApi.Reply checked = access.admin().get(path + "?limit=1000");
    assertThat(checked.status()).as("%s", checked.body()).isEqualTo(200);
    assertThat(checked.body().path("next_page_token").isNull()).isTrue();
    assertThat(auditLog()).isEqualTo(auditBefore);
  }

  @Test
  void anOrgAdminGivesTheServerNoIdentityOrDestinationOfItsOwn() {
    String buckets = "/orgs/" + org.warehouse() + "/buckets";
    int database = floe.database().dsl().fetchOne("select inet_server_port()")
        .get(0, Integer.class);
    Map<String, Object> keys = Map.of("method", "static", "access_key_id", "AKID",
        "secret_access_key", "SECRET");
    List<Map<String, Object>> borrowed = List.of(
        Map.of("nickname", "ambient", "platform", "s3", "name", "any", "region", "us-east-1",
            "auth", Map.of("method", "ambient")),
        Map.of("nickname", "assumed", "platform", "s3", "name", "any", "region", "us-east-1",
            "auth", Map.of("method", "ambient", "role_arn",
                "arn:aws:iam::123456789012:role/the-servers-own")),
        Map.of("nickname", "google", "platform", "gcs", "name", "any",
            "auth", Map.of("method", "ambient")),
        Map.of("nickname", "database", "platform", "s3-compatible", "name", "any",
            "endpoint", "http://localhost:" + database, "auth", keys),
        Map.of("nickname", "database6", "platform", "s3-compatible", "name", "any",
            "endpoint", "http://[::1]:" + database, "auth", keys),
        Map.of("nickname", "metadata", "platform", "s3-compatible", "name", "any",
            "endpoint", "http://169.254.169.254", "auth", keys),
        Map.of("nickname", "scheme", "platform", "s3-compatible", "name", "any",
            "endpoint", "file:///etc/passwd", "auth", keys));
    String before = access.admin().get(buckets).body().toString();
    String auditBefore = auditLog();
    for (Map<String, Object> body : borrowed) {
      ManagementApi.Reply reply = access.admin().post(buckets, body);
      assertThat(reply.status()).as("%s: %s", body, reply.body()).isIn(403, 422);
    }
    assertThat(access.admin().get(buckets).body().toString()).isEqualTo(before);
    assertThat(auditLog()).isEqualTo(auditBefore);
  }

  @Test
  void aStoreThatDoesNotAnswerIsA503NamingTheBucketAndNothingIsClaimed() throws Exception {
    try (NotAStore notAStore = new NotAStore()) {
      ManagementApi.Reply bucket = access.admin().post("/orgs/" + org.warehouse() + "/buckets",
          Map.of("nickname", "silent", "platform", "s3-compatible", "name", "lake",
              "endpoint", notAStore.endpoint(), "region", "us-east-1", "path_style", true,
              "auth", Map.of("method", "static", "access_key_id", "AKID",
                  "secret_access_key", "SECRET")));
      assertThat(bucket.status()).as("%s", bucket.body()).isEqualTo(201);
      IcebergHttp.Reply created = admin.post("/namespaces",
          "{\"namespace\":[\"unreachable\"],\"properties\":{\"floe.bucket\":\"silent\"}}");
      assertThat(created.status()).as("%s", created.body()).isEqualTo(503);
      assertThat(created.message()).contains("'silent'").doesNotContain("127.0.0.1");
      assertThat(notAStore.connections()).isPositive();
      assertThat(admin.get("/namespaces/unreachable").status()).isEqualTo(404);
    }
  }

  @Test
  void aMemberWithoutGrantsSeesBucketsByNicknameAndPlatformOnly() {
    String buckets = "/orgs/" + org.warehouse() + "/buckets";
    assertThat(access.admin().post(buckets, Map.of("nickname", "lake", "platform", "s3",
        "name", "org-lake", "region", "eu-west-1", "auth", Map.of("method", "static",
            "access_key_id", "AKID", "secret_access_key", "SECRET", "role_arn",
            "arn:aws:iam::123456789012:role/lake-writer"))).status()).isEqualTo(201);
    ManagementApi member = access.as(access.newUser("no-grants"));

    for (String path : List.of(buckets, buckets + "/lake", buckets + "/default")) {
      ManagementApi.Reply seen = member.get(path);
      assertThat(seen.status()).isEqualTo(200);
      assertThat(seen.body().toString()).doesNotContain("lake-writer").doesNotContain("org-lake")
          .doesNotContain("eu-west-1").doesNotContain(floe.directory().toString())
          .doesNotContain("static").doesNotContain("auth");
    }
    JsonNode lake = member.get(buckets + "/lake").body();
    assertThat(lake.path("nickname").asText()).isEqualTo("lake");
    assertThat(lake.path("platform").asText()).isEqualTo("s3");
    assertThat(access.admin().get(buckets + "/lake").body().path("auth").path("role_arn")
        .asText()).isEqualTo("arn:aws:iam::123456789012:role/lake-writer");
  }

  @Test
  void anExternalIdIsAnOrgsOwnAndNamesNoOtherOrgsUser() {
    ManagementApi.Reply ours = access.admin().post("/orgs/" + org.warehouse() + "/users",
        Map.of("name", "ada", "external_id", "ada@corp.example"));
    assertThat(ours.status()).as("%s", ours.body()).isEqualTo(201);

    // Another org has a user by that id too: it neither learns of ours nor is kept from it.
    OrgAccess other = new OrgAccess(floe, otherOrg);
    ManagementApi.Reply theirs = other.admin().post("/orgs/" + otherOrg.warehouse() + "/users",
        Map.of("name", "ada-elsewhere", "external_id", "ada@corp.example"));
    assertThat(theirs.status()).as("%s", theirs.body()).isEqualTo(201);
    ManagementApi.Reply twice = other.admin().post("/orgs/" + otherOrg.warehouse() + "/users",
        Map.of("name", "ada-again", "external_id", "ada@corp.example"));
    assertThat(twice.status()).isEqualTo(409);
    assertThat(twice.body().toString()).doesNotContain(org.warehouse())
        .doesNotContain(ours.body().path("id").asText());
    assertThat(other.admin().get("/orgs/" + otherOrg.warehouse() + "/members").body()
        .toString()).doesNotContain(ours.body().path("id").asText());
  }

  private String location(String table) {
    return admin.get("/namespaces/sales/tables/" + table).body().path("metadata")
        .path("location").asText();
  }

  private IcebergHttp.Reply register(String name, String metadataLocation) {
    return admin.post("/namespaces/sales/register",
        json(Map.of("name", name, "metadata-location", metadataLocation)));
  }

  private static String commit(Map<String, Object> update) {
    return json(Map.of("requirements", List.of(), "updates", List.of(update)));
  }

  private static String addSnapshot(String manifestList) {
    return commit(Map.of("action", "add-snapshot", "snapshot", Map.of("snapshot-id", 42,
        "timestamp-ms", Instant.now().toEpochMilli(), "manifest-list", manifestList,
        "summary", Map.of("operation", "append"), "schema-id", 0)));
  }

  private static String setStatistics(String path) {
    return commit(Map.of("action", "set-statistics", "statistics", Map.of("snapshot-id", 42,
        "statistics-path", path, "file-size-in-bytes", 10, "file-footer-size-in-bytes", 5,
        "blob-metadata", List.of())));
  }

  private static String setPartitionStatistics(String path) {
    return commit(Map.of("action", "set-partition-statistics", "partition-statistics",
        Map.of("snapshot-id", 42, "statistics-path", path, "file-size-in-bytes", 10)));
  }

  private static String createWithProperty(String name, String key, String value) {
    return json(Map.of("name", name, "schema", Map.of("type", "struct", "fields", List.of()),
        "properties", Map.of(key, value)));
  }

  /** The commit that finishes a staged create, as Iceberg's Java client sends it. */
  private static String stagedCreate(String location) {
    return json(Map.of("requirements", List.of(Map.of("type", "assert-create")), "updates",
        List.of(Map.of("action", "assign-uuid", "uuid", java.util.UUID.randomUUID().toString()),
            Map.of("action", "upgrade-format-version", "format-version", 2),
            Map.of("action", "add-schema", "schema",
                Map.of("type", "struct", "schema-id", 0, "fields", List.of())),
            Map.of("action", "set-current-schema", "schema-id", -1),
            Map.of("action", "add-spec", "spec", Map.of("spec-id", 0, "fields", List.of())),
            Map.of("action", "set-default-spec", "spec-id", -1),
            Map.of("action", "add-sort-order", "sort-order",
                Map.of("order-id", 0, "fields", List.of())),
            Map.of("action", "set-default-sort-order", "sort-order-id", -1),
            Map.of("action", "set-location", "location", location))));
  }

  private static String json(Object value) {
    try {
      return JSON.writeValueAsString(value);
    } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
      throw new AssertionError(e);
    }
  }

  private static String setProperty(String key, String value) {
    return commit(Map.of("action", "set-properties", "updates", Map.of(key, value)));
  }

  /**
   * Announces a namespace create with a body over the limit and asks whether to send it
   * ({@code Expect: 100-continue}), as careful clients send large bodies. The server must refuse
   * from the headers: had it asked for the body, the refusal would race the upload it cuts off.
   */
  private IcebergHttp.Reply announceOversizedNamespaceCreate() {
    String path = java.net.URI.create(floe.uri()).getPath() + "/v1/" + org.warehouse()
        + "/namespaces";
    RawHttp.Reply reply = new RawHttp(floe.server().port()).send(RawHttp.Request.of("POST", path)
        .header("Authorization", "Bearer " + org.token())
        .header("Content-Type", "application/json")
        .body(new byte[9 * 1024 * 1024], RawHttp.Framing.ANNOUNCED_ONLY));
    JsonNode body = reply.json();
    return new IcebergHttp.Reply(reply.status(), body == null ? MissingNode.getInstance() : body);
  }

  /**
   * Sends the requests and shows each refused with one of {@code statuses}, nothing changed and
   * nothing recorded in the org's audit log.
   */
  private void refusedWithNothingChanged(Supplier<List<IcebergHttp.Reply>> requests,
      Integer... statuses) {
    Path bucket = floe.bucketDirectory(org);
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
