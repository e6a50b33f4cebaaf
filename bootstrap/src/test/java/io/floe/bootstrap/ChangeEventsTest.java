package io.floe.bootstrap;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.DataFiles;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Schema;
import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.rest.RESTCatalog;
import org.apache.iceberg.types.Types;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The change feed over HTTP: the Iceberg REST events endpoint and the management API's feed.
 * Each commit is one event with its new snapshot, in commit order; a refused commit none; a
 * reader sees only the namespaces it may read; pages continue where they ended; malformed tokens
 * and bodies are 400s.
 */
@FloeServerTest
class ChangeEventsTest {
  private static final Schema SCHEMA =
      new Schema(Types.NestedField.required(1, "id", Types.LongType.get()));

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
    for (String namespace : List.of("sales", "hr")) {
      assertThat(admin.post("/orgs/" + org.warehouse() + "/iceberg/namespaces",
          Map.of("name", namespace)).status()).isEqualTo(201);
    }
  }

  private static DataFile file(Table table, int n) {
    return DataFiles.builder(PartitionSpec.unpartitioned())
        .withPath(table.location() + "/data/f" + n + ".parquet").withFileSizeInBytes(100)
        .withRecordCount(10 + n).build();
  }

  private static JsonNode events(IcebergHttp catalog, String body) {
    IcebergHttp.Reply reply = catalog.post("/events", body);
    assertThat(reply.status()).as("%s", reply.body()).isEqualTo(200);
    return reply.body();
  }

  private static List<String> field(JsonNode page, String pointer) {
    List<String> values = new ArrayList<>();
    page.path("events").forEach(event -> values.add(event.at(pointer).asText()));
    return values;
  }

  @Test
  void eachCommitIsOneEventWithItsSnapshotInCommitOrder() throws Exception {
    List<Long> snapshots = new ArrayList<>();
    try (RESTCatalog engine = floe.catalog(org, Map.of())) {
      Table table = engine.createTable(TableIdentifier.of("sales", "orders"), SCHEMA);
      for (int i = 0; i < 3; i++) {
        table.newAppend().appendFile(file(table, i)).commit();
        snapshots.add(table.currentSnapshot().snapshotId());
      }
    }
    IcebergHttp catalog = new IcebergHttp(floe, org);
    // A commit whose requirement no longer holds is refused: no event.
    IcebergHttp.Reply refused = catalog.post("/namespaces/sales/tables/orders",
        "{\"requirements\":[{\"type\":\"assert-current-schema-id\",\"current-schema-id\":7}],"
            + "\"updates\":[{\"action\":\"set-properties\",\"updates\":{\"a\":\"b\"}}]}");
    assertThat(refused.status()).isEqualTo(409);

    JsonNode page = events(catalog, "{\"operation-types\":[\"update-table\"]}");
    assertThat(field(page, "/operation-type")).containsExactly("update-table", "update-table",
        "update-table");
    assertThat(field(page, "/x-floe-details/snapshot_id"))
        .containsExactlyElementsOf(snapshots.stream().map(String::valueOf).toList());
    JsonNode first = page.path("events").get(0);
    assertThat(first.at("/identifier/namespace/0").asText()).isEqualTo("sales");
    assertThat(first.at("/identifier/name").asText()).isEqualTo("orders");
    assertThat(first.at("/x-floe-details/added_snapshots/0/summary/added-records").asText())
        .isEqualTo("10");
    assertThat(first.at("/x-floe-details/added_snapshots/0/operation").asText())
        .isEqualTo("append");
    assertThat(first.path("event-id").asText()).hasSize(36);
    assertThat(first.path("request-event-count").asInt()).isEqualTo(1);
    assertThat(first.path("timestamp-ms").asLong()).isPositive();

    JsonNode all = events(catalog, "{}");
    assertThat(field(all, "/operation-type")).containsExactly("create-namespace",
        "create-namespace", "create-table", "update-table", "update-table", "update-table");
    // The same events from where a page of one left off.
    JsonNode one = events(catalog, "{\"page-size\":1}");
    JsonNode rest = events(catalog, "{\"continuation-token\":\""
        + one.path("continuation-token").asText() + "\"}");
    assertThat(field(rest, "/event-id"))
        .containsExactlyElementsOf(field(all, "/event-id").subList(1, 6));
    JsonNode caughtUp = events(catalog, "{\"continuation-token\":\""
        + all.path("continuation-token").asText() + "\"}");
    assertThat(caughtUp.path("events")).isEmpty();
  }

  @Test
  void aReaderSeesOnlyTheNamespacesItMayRead() throws Exception {
    TestFloe.Org analyst = access.newUser("analyst");
    access.grant(access.idOf("analyst"), "sales", null, "read");
    TestFloe.Org stranger = access.newUser("stranger");
    try (RESTCatalog engine = floe.catalog(org, Map.of())) {
      engine.createTable(TableIdentifier.of("sales", "orders"), SCHEMA);
      engine.createTable(TableIdentifier.of("hr", "people"), SCHEMA);
    }
    assertThat(field(events(new IcebergHttp(floe, analyst), "{}"), "/operation-type"))
        .containsExactly("create-namespace", "create-table");
    assertThat(field(events(new IcebergHttp(floe, analyst), "{}"), "/identifier/name"))
        .containsExactly("", "orders");
    assertThat(events(new IcebergHttp(floe, stranger), "{}").path("events")).isEmpty();
    // The management API's feed: the same rule, and Floe's own changes for admins.
    JsonNode mine = access.as(analyst).get("/orgs/" + org.warehouse() + "/events").body();
    assertThat(mine.path("events")).extracting(e -> e.path("target_name").asText())
        .containsExactly("sales", "sales.orders");
    JsonNode everything = admin.get("/orgs/" + org.warehouse() + "/events?limit=1000").body();
    assertThat(everything.path("events")).extracting(e -> e.path("action").asText())
        .contains("principal.create", "grant.create", "token.issue", "table.create");
  }

  @Test
  void aNamespaceDeletedAndCreatedAgainStartsWithAnEmptyHistoryForItsNewReaders()
      throws Exception {
    try (RESTCatalog engine = floe.catalog(org, Map.of())) {
      engine.createTable(TableIdentifier.of("hr", "salaries"), SCHEMA);
      engine.dropTable(TableIdentifier.of("hr", "salaries"));
    }
    String namespaces = "/orgs/" + org.warehouse() + "/iceberg/namespaces";
    assertThat(admin.delete(namespaces + "/hr?imsure=true&immediate=true").status())
        .isIn(200, 204);
    assertThat(admin.post(namespaces, Map.of("name", "hr")).status()).isEqualTo(201);
    TestFloe.Org newcomer = access.newUser("newcomer");
    access.grant(access.idOf("newcomer"), "hr", null, "read");

    JsonNode pulled = events(new IcebergHttp(floe, newcomer), "{}");
    assertThat(field(pulled, "/operation-type")).containsExactly("create-namespace");
    JsonNode followed = access.as(newcomer)
        .get("/orgs/" + org.warehouse() + "/events?namespace=hr").body();
    assertThat(followed.path("events")).extracting(e -> e.path("action").asText())
        .containsExactly("namespace.create");
    JsonNode everything = admin.get("/orgs/" + org.warehouse() + "/events?limit=1000").body();
    assertThat(everything.path("events")).extracting(e -> e.path("action").asText())
        .as("admins still see the old one's history")
        .contains("table.create", "table.drop", "namespace.delete");
  }

  @Test
  void theManagementFeedPagesFromAPosition() throws Exception {
    try (RESTCatalog engine = floe.catalog(org, Map.of())) {
      engine.createTable(TableIdentifier.of("sales", "orders"), SCHEMA);
    }
    String base = "/orgs/" + org.warehouse() + "/events";
    JsonNode first = admin.get(base + "?limit=2&namespace=sales").body();
    assertThat(first.path("events")).extracting(e -> e.path("action").asText())
        .containsExactly("namespace.create", "table.create");
    JsonNode afterFirst = admin.get(base + "?namespace=sales&after="
        + first.path("events").get(0).path("position").asText()).body();
    assertThat(afterFirst.path("events")).extracting(e -> e.path("action").asText())
        .containsExactly("table.create");
    JsonNode commits = admin.get(base + "?action=table.create").body();
    assertThat(commits.path("events")).hasSize(1);
  }

  @Test
  void aRestartKeepsEveryEventAndItsIdAndOldTokensAreGone(@TempDir Path directory)
      throws Exception {
    List<String> before;
    try (TestFloe own = TestFloe.start(directory)) {
      TestFloe.Org operators = own.operators();
      try (RESTCatalog engine = own.catalog(operators, Map.of())) {
        engine.createNamespace(Namespace.of("kept"));
        Table table = engine.createTable(TableIdentifier.of("kept", "t"), SCHEMA);
        table.newAppend().appendFile(file(table, 1)).commit();
      }
      JsonNode page = events(new IcebergHttp(own, operators), "{}");
      before = field(page, "/event-id");
      assertThat(before).hasSize(3);
    }
    try (TestFloe restarted = TestFloe.start(directory)) {
      IcebergHttp catalog = new IcebergHttp(restarted, restarted.operators());
      JsonNode page = events(catalog, "{}");
      assertThat(field(page, "/event-id")).containsExactlyElementsOf(before);
      String continuation = page.path("continuation-token").asText();
      JsonNode one = events(catalog, "{\"page-size\":1}");
      // A reader that keeps asking keeps a fresh token; one left behind past the retention is
      // gone.
      restarted.clock().advance(ServerSettings.EVENT_RETENTION.minusMinutes(1));
      String fresh = events(catalog, "{\"continuation-token\":\"" + continuation + "\"}")
          .path("continuation-token").asText();
      restarted.clock().advance(Duration.ofMinutes(2));
      IcebergHttp.Reply gone = catalog.post("/events", "{\"continuation-token\":\""
          + one.path("continuation-token").asText() + "\"}");
      assertThat(gone.status()).as("%s", gone.body()).isEqualTo(410);
      assertThat(gone.body().at("/error/type").asText()).isEqualTo("ChangeEventsExpiredException");
      assertThat(events(catalog, "{\"continuation-token\":\"" + fresh + "\"}")
          .path("events")).isEmpty();
    }
  }

  @Test
  void malformedTokensAndBodiesAreBadRequests() {
    IcebergHttp catalog = new IcebergHttp(floe, org);
    for (String body : List.of("{\"continuation-token\":\"%%%\"}",
        "{\"continuation-token\":\"AAAA\"}", "{\"page-size\":0}",
        "{\"operation-types\":[\"explode\"]}", "{\"catalog-objects-by-name\":[[]]}",
        "{\"catalog-objects-by-name\":[[\"a\",\"b\",\"c\"]]}", "{\"object-types\":[\"repo\"]}",
        "{\"catalog-objects-by-id\":[{\"uuid\":\"x\",\"type\":\"table\"}]}", "[]", "{} {",
        "{\"after-timestamp-ms\":-1}")) {
      IcebergHttp.Reply reply = catalog.post("/events", body);
      assertThat(reply.status()).as(body + " → " + reply.body()).isEqualTo(400);
    }
    String base = "/orgs/" + org.warehouse() + "/events";
    for (String query : List.of("?after=%25%25", "?after=MTox", "?limit=0", "?limit=x",
        "?action=table.explode", "?namespace=%00")) {
      ManagementApi.Reply reply = admin.get(base + query);
      // The management API answers a malformed number as its clients expect, 422.
      assertThat(reply.status()).as(query + " → " + reply.body()).isIn(400, 422);
    }
  }
}
