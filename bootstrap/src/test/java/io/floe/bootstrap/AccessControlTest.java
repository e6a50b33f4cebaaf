package io.floe.bootstrap;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.iceberg.Schema;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.rest.RESTCatalog;
import org.apache.iceberg.types.Types;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Grants at namespace and table grain, through teams, and public namespaces, as engines see them
 * over the Iceberg REST API: what is not granted does not exist, what is readable but not
 * writable is a 403.
 */
@FloeServerTest
class AccessControlTest {
  private static final Schema SCHEMA =
      new Schema(Types.NestedField.required(1, "id", Types.LongType.get()));

  private static TestFloe floe;
  private TestFloe.Org org;
  private OrgAccess access;
  private RESTCatalog admin;

  @BeforeAll
  static void start(TestFloe shared) {
    floe = shared;
  }

  @BeforeEach
  void newOrg() {
    org = floe.newOrg();
    access = new OrgAccess(floe, org);
    admin = floe.catalog(org, Map.of());
    for (String ns : List.of("sales", "hr")) {
      admin.createNamespace(Namespace.of(ns));
    }
    admin.createTable(TableIdentifier.of("sales", "orders"), SCHEMA);
    admin.createTable(TableIdentifier.of("sales", "refunds"), SCHEMA);
    admin.createTable(TableIdentifier.of("hr", "salaries"), SCHEMA);
  }

  @Test
  void aMemberWithoutGrantsSeesNothing() {
    IcebergHttp alice = new IcebergHttp(floe, access.newUser("alice"));
    assertThat(namespaces(alice)).isEmpty();
    assertThat(alice.get("/namespaces/sales").status()).isEqualTo(404);
    assertThat(alice.get("/namespaces/sales/tables/orders").errorType())
        .isEqualTo("NoSuchTableException");
  }

  @Test
  void aNamespaceReadGrantAllowsReadingButNotWriting() {
    String alice = access.create("users", "alice");
    IcebergHttp http = new IcebergHttp(floe, access.tokenFor(alice));
    access.grant(alice, "sales", null, "read");

    assertThat(namespaces(http)).containsExactly("sales");
    assertThat(tables(http, "sales")).containsExactly("orders", "refunds");
    assertThat(http.get("/namespaces/sales/tables/orders").status()).isEqualTo(200);
    IcebergHttp.Reply create = http.post("/namespaces/sales/tables",
        "{\"name\":\"new\",\"schema\":{\"type\":\"struct\",\"fields\":[]}}");
    assertThat(create.status()).isEqualTo(403);
    assertThat(http.delete("/namespaces/sales/tables/orders").status()).isEqualTo(403);
    assertThat(http.get("/namespaces/hr/tables/salaries").status()).isEqualTo(404);
    assertThat(admin.tableExists(TableIdentifier.of("sales", "orders"))).isTrue();
    assertThat(admin.tableExists(TableIdentifier.of("sales", "new"))).isFalse();
  }

  @Test
  void aTableGrantNeverReachesItsNeighbour() {
    String bob = access.create("users", "bob");
    TestFloe.Org bobToken = access.tokenFor(bob);
    IcebergHttp http = new IcebergHttp(floe, bobToken);
    access.grant(bob, "sales", "orders", "write");

    assertThat(namespaces(http)).containsExactly("sales");
    assertThat(tables(http, "sales")).containsExactly("orders");
    assertThat(http.get("/namespaces/sales/tables/refunds").status()).isEqualTo(404);
    assertThat(http.delete("/namespaces/sales/tables/refunds").status()).isEqualTo(404);
    // Writing the granted table works, through Iceberg's own client.
    RESTCatalog asBob = floe.catalog(bobToken, Map.of());
    asBob.loadTable(TableIdentifier.of("sales", "orders")).updateProperties()
        .set("owner", "bob").commit();
    assertThat(admin.loadTable(TableIdentifier.of("sales", "orders")).properties())
        .containsEntry("owner", "bob");
    // A table grant is not a namespace grant: no new tables, no namespace properties.
    assertThat(http.post("/namespaces/sales/tables",
        "{\"name\":\"new\",\"schema\":{\"type\":\"struct\",\"fields\":[]}}").status())
        .isEqualTo(403);
    assertThat(http.post("/namespaces/sales/properties", "{\"updates\":{\"a\":\"b\"}}").status())
        .isEqualTo(403);
  }

  @Test
  void theManagementApiShowsATableGranteeOnlyItsTablesWithTheirActions() {
    String user = access.create("users", "hal");
    ManagementApi asHal = access.as(access.tokenFor(user));
    access.grant(user, "sales", "refunds", "write");
    String namespaces = "/orgs/" + org.warehouse() + "/iceberg/namespaces";

    ManagementApi.Reply listed = asHal.get(namespaces);
    assertThat(listed.status()).as(listed.body().toString()).isEqualTo(200);
    assertThat(listed.body()).hasSize(1);
    assertThat(listed.body().get(0).path("name").asText()).isEqualTo("sales");
    ManagementApi.Reply tables = asHal.get(namespaces + "/sales/tables/paginated");
    assertThat(tables.status()).as(tables.body().toString()).isEqualTo(200);
    assertThat(tables.body().path("items")).hasSize(1);
    JsonNode refunds = tables.body().path("items").get(0);
    assertThat(refunds.path("name").asText()).isEqualTo("refunds");
    assertThat(refunds.path("effective_actions")).hasSize(2);
    assertThat(asHal.get(namespaces + "/hr").status()).isEqualTo(404);
  }

  @Test
  void teamGrantsReachTheTeamsUsersWhileTheyAreMembers() {
    String team = access.create("teams", "analysts");
    String carol = access.create("users", "carol");
    IcebergHttp http = new IcebergHttp(floe, access.tokenFor(carol));
    access.grant(team, "hr", null, "read");
    assertThat(http.get("/namespaces/hr/tables/salaries").status()).isEqualTo(404);

    assertThat(access.admin().post("/orgs/" + org.warehouse() + "/teams/" + team + "/members",
        Map.of("principal_id", carol)).status()).isEqualTo(204);
    assertThat(http.get("/namespaces/hr/tables/salaries").status()).isEqualTo(200);
    assertThat(namespaces(http)).containsExactly("hr");

    assertThat(access.admin().delete("/orgs/" + org.warehouse() + "/teams/" + team + "/members/"
        + carol).status()).isEqualTo(204);
    assertThat(http.get("/namespaces/hr/tables/salaries").status()).isEqualTo(404);
  }

  @Test
  void anApiClientWithAWriteGrantCreatesTables() {
    String client = access.create("api-clients", "etl");
    TestFloe.Org token = access.tokenFor(client);
    access.grant(client, "hr", null, "write");
    floe.catalog(token, Map.of()).createTable(TableIdentifier.of("hr", "headcount"), SCHEMA);
    assertThat(admin.tableExists(TableIdentifier.of("hr", "headcount"))).isTrue();
    assertThat(new IcebergHttp(floe, token).get("/namespaces/sales").status()).isEqualTo(404);
  }

  @Test
  void publicNamespacesAreReadableByEveryMember() {
    ManagementApi.Reply made = access.admin().patch("/orgs/" + org.warehouse()
        + "/iceberg/namespaces/hr", Map.of("visibility", "AUTHENTICATED_PUBLIC"));
    assertThat(made.status()).as(made.body().toString()).isEqualTo(200);
    IcebergHttp dave = new IcebergHttp(floe, access.newUser("dave"));
    assertThat(namespaces(dave)).containsExactly("hr");
    assertThat(dave.get("/namespaces/hr/tables/salaries").status()).isEqualTo(200);
    assertThat(dave.delete("/namespaces/hr/tables/salaries").status()).isEqualTo(403);
  }

  @Test
  void listingsFilterBeforeTheyPageSoEveryPageIsFull() {
    String erin = access.create("users", "erin");
    IcebergHttp http = new IcebergHttp(floe, access.tokenFor(erin));
    for (int i = 0; i < 8; i++) {
      admin.createNamespace(Namespace.of("ns" + i));
    }
    access.grant(erin, "ns1", null, "read");
    access.grant(erin, "ns4", null, "read");
    access.grant(erin, "ns6", null, "read");
    access.grant(erin, "sales", "refunds", "read");

    List<String> seen = new ArrayList<>();
    String token = null;
    int pages = 0;
    do {
      IcebergHttp.Reply page = http.get("/namespaces?pageSize=2"
          + (token == null ? "" : "&pageToken=" + token));
      assertThat(page.status()).isEqualTo(200);
      page.body().path("namespaces").forEach(ns -> seen.add(ns.get(0).asText()));
      JsonNode next = page.body().path("next-page-token");
      token = next.isMissingNode() || next.isNull() ? null : next.asText();
      pages++;
      if (token != null) {
        assertThat(page.body().path("namespaces")).hasSize(2);
      }
    } while (token != null);
    assertThat(seen).containsExactly("ns1", "ns4", "ns6", "sales");
    assertThat(pages).isLessThanOrEqualTo(3);
  }

  @Test
  void onlyAdminsOrNamespaceManagersChangeAccess() {
    String frank = access.create("users", "frank");
    TestFloe.Org token = access.tokenFor(frank);
    ManagementApi asFrank = access.as(token);
    String target = access.create("users", "gina");
    String orgPath = "/orgs/" + org.warehouse();

    assertThat(asFrank.post(orgPath + "/users", Map.of("name", "mallory")).status())
        .isEqualTo(403);
    assertThat(asFrank.post(orgPath + "/tokens", Map.of("principal_id", frank)).status())
        .isEqualTo(403);
    // Invisible namespace: as if it did not exist.
    assertThat(asFrank.post(orgPath + "/grants", Map.of("principal_id", target,
        "namespace", "hr", "action", "read")).status()).isEqualTo(404);

    access.grant(frank, "sales", null, "manage");
    assertThat(asFrank.post(orgPath + "/grants", Map.of("principal_id", target,
        "namespace", "sales", "action", "read")).status()).isEqualTo(201);
    assertThat(asFrank.post(orgPath + "/grants", Map.of("principal_id", frank,
        "namespace", "hr", "action", "manage")).status()).isEqualTo(404);
    assertThat(asFrank.get(orgPath + "/grants?namespace=sales").body()).hasSize(2);
    assertThat(new IcebergHttp(floe, token).get("/namespaces/hr").status()).isEqualTo(404);
  }

  private static List<String> namespaces(IcebergHttp http) {
    IcebergHttp.Reply reply = http.get("/namespaces");
    assertThat(reply.status()).as(reply.body().toString()).isEqualTo(200);
    List<String> names = new ArrayList<>();
    reply.body().path("namespaces").forEach(ns -> names.add(ns.get(0).asText()));
    return names;
  }

  private static List<String> tables(IcebergHttp http, String namespace) {
    IcebergHttp.Reply reply = http.get("/namespaces/" + namespace + "/tables");
    assertThat(reply.status()).as(reply.body().toString()).isEqualTo(200);
    List<String> names = new ArrayList<>();
    reply.body().path("identifiers").forEach(id -> names.add(id.path("name").asText()));
    return names;
  }
}
