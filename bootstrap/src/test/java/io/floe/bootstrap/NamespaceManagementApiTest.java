package io.floe.bootstrap;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.StreamSupport;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The namespace management API over HTTP against a real Floe with the default 7-day recovery
 * period: the model, the descriptive fields, the listings, and the lifecycle up to the cleanup.
 */
@FloeServerTest(recoverable = true)
class NamespaceManagementApiTest {
  private static final AtomicInteger ORGS = new AtomicInteger();
  private static final Map<String, Object> SCHEMA = Map.of("type", "struct", "schema-id", 0,
      "fields", List.of(Map.of("id", 1, "name", "station", "required", false, "type", "string")));

  static TestFloe floe;

  String org;
  TestFloe.Org orgAdmin;
  Path bucket;
  ManagementApi api;

  @BeforeAll
  static void startServer(TestFloe shared) {
    floe = shared;
  }

  @BeforeEach
  void newOrg() {
    TestFloe.Org created = floe.newOrg("ns-" + ORGS.incrementAndGet());
    org = created.warehouse();
    orgAdmin = created;
    bucket = floe.bucketDirectory(created);
    api = new ManagementApi(floe.port(), created.token());
  }

  @Test
  void createShowsTheNamespaceAsTheArraylakeClientReadsIt() {
    JsonNode created = create(Map.of("name", "observations", "bucket_nickname", "default",
        "description", "Weather stations", "metadata", Map.of("source", "stations",
            "quality_checked", true, "stations", 12, "tags", List.of("a", "b")),
        "properties", Map.of("owner", "science"), "visibility", "AUTHENTICATED_PUBLIC"));

    assertThat(created.path("org").asText()).isEqualTo(org);
    assertThat(created.path("name").asText()).isEqualTo("observations");
    assertThat(created.path("bucket_nickname").asText()).isEqualTo("default");
    assertThat(created.path("prefix").asText()).matches("[a-z0-9]{8}_observations");
    assertThat(created.path("visibility").asText()).isEqualTo("AUTHENTICATED_PUBLIC");
    assertThat(created.path("description").asText()).isEqualTo("Weather stations");
    assertThat(created.path("metadata").path("quality_checked").asBoolean()).isTrue();
    assertThat(created.path("metadata").path("stations").asInt()).isEqualTo(12);
    assertThat(created.path("metadata").path("tags")).hasSize(2);
    assertThat(created.path("properties").path("owner").asText()).isEqualTo("science");
    assertThat(created.path("table_count").asInt()).isZero();
    assertThat(created.path("effective_actions")).extracting(JsonNode::asText)
        .containsExactly("CAN_READ", "CAN_WRITE", "CAN_MANAGE_USERS");
    assertThat(created.path("deleted_at").isNull()).isTrue();
    assertThat(bucket.resolve(created.path("prefix").asText()).resolve(".floe-warehouse.json"))
        .exists();
    assertThat(api.get(path("observations")).body()).isEqualTo(created);
  }

  @Test
  void creatingTheNameOfADeletedNamespaceSaysItCanBeRestoredAndUntilWhen() {
    create(Map.of("name", "obs"));
    assertThat(api.delete(path("obs") + "?imsure=true").status()).isIn(200, 204);

    ManagementApi.Reply again = api.post("/orgs/" + org + "/iceberg/namespaces",
        Map.of("name", "obs"));
    assertThat(again.status()).isEqualTo(409);
    assertThat(again.body().path("detail").asText())
        .contains("belongs to a deleted namespace, which can be restored until ")
        .contains("POST /orgs/" + org + "/iceberg/namespaces/obs/restore")
        .contains("floe namespaces restore obs");
    IcebergHttp.Reply viaIceberg = new IcebergHttp(floe, orgAdmin)
        .post("/namespaces", "{\"namespace\":[\"obs\"]}");
    assertThat(viaIceberg.status()).isEqualTo(409);
    assertThat(viaIceberg.body().at("/error/message").asText())
        .contains("belongs to a deleted namespace");
  }

  @Test
  void theCommentPropertyStandsInUntilADescriptionIsSet() {
    create(Map.of("name", "obs", "properties", Map.of("comment", "from an engine")));
    assertThat(get("obs").path("description").asText()).isEqualTo("from an engine");

    assertThat(patch("obs", Map.of("description", "ours")).path("description").asText())
        .isEqualTo("ours");
    JsonNode cleared = patch("obs", Map.of("description", ""));
    assertThat(cleared.path("description").asText()).isEqualTo("from an engine");
  }

  @Test
  void metadataEditsAddUpdateAndRemoveDisjointKeys() {
    create(Map.of("name", "obs", "metadata", Map.of("region", "EU", "old", 1)));

    JsonNode changed = patch("obs", Map.of("add_metadata", Map.of("source", "stations"),
        "update_metadata", Map.of("region", "US"), "remove_metadata", List.of("old"),
        "visibility", "AUTHENTICATED_PUBLIC"));

    assertThat(changed.path("metadata").properties()).extracting(Map.Entry::getKey)
        .containsExactlyInAnyOrder("region", "source");
    assertThat(changed.path("metadata").path("region").asText()).isEqualTo("US");
    assertThat(changed.path("visibility").asText()).isEqualTo("AUTHENTICATED_PUBLIC");

    ManagementApi.Reply overlapping = api.patch(path("obs"), Map.of(
        "add_metadata", Map.of("k", 1), "remove_metadata", List.of("k")));
    assertThat(overlapping.status()).isEqualTo(422);
    assertThat(overlapping.detail()).contains("disjoint").contains("k");
    ManagementApi.Reply existing = api.patch(path("obs"), Map.of("add_metadata",
        Map.of("region", "CA")));
    assertThat(existing.status()).isEqualTo(422);
    assertThat(existing.detail()).contains("already exist");
    ManagementApi.Reply nested = api.patch(path("obs"), Map.of("add_metadata",
        Map.of("deep", Map.of("a", 1))));
    assertThat(nested.status()).isEqualTo(422);
  }

  @Test
  void namesAreSharedWithReposAndComparedWithoutCase() {
    create(Map.of("name", "Weather"));
    assertThat(api.post(namespaces(), Map.of("name", "WEATHER")).status()).isEqualTo(409);
    assertThat(api.post("/orgs/" + org + "/repos", Map.of("name", "weather")).status())
        .isEqualTo(409);

    assertThat(api.post("/orgs/" + org + "/repos", Map.of("name", "arrays")).status())
        .isEqualTo(201);
    ManagementApi.Reply taken = api.post(namespaces(), Map.of("name", "Arrays"));
    assertThat(taken.status()).isEqualTo(409);
    assertThat(taken.detail()).contains("repo");
  }

  @Test
  void invalidInputIsAValidationErrorThatSaysWhy() {
    ManagementApi.Reply badName = api.post(namespaces(), Map.of("name", "-starts-with-dash"));
    assertThat(badName.status()).isEqualTo(422);
    assertThat(badName.detail()).contains("invalid namespace name");
    assertThat(api.post(namespaces(), Map.of("name", "x", "visibility", "PUBLIC")).status())
        .isEqualTo(422);
    assertThat(api.post(namespaces(), Map.of("name", "x", "description", "d".repeat(256)))
        .status()).isEqualTo(422);
    ManagementApi.Reply noBucket = api.post(namespaces(), Map.of("name", "x",
        "bucket_nickname", "nowhere"));
    assertThat(noBucket.status()).isEqualTo(400);
    assertThat(noBucket.detail()).contains("nowhere");
    assertThat(api.get(namespaces() + "/x").status()).isEqualTo(404);
  }

  @Test
  void anOrgWithoutIcebergIsRefusedWithA403() {
    ManagementApi operator = new ManagementApi(floe.port(), floe.operators().token());
    assertThat(operator.patch("/orgs/" + org, Map.of("iceberg_enabled", false)).status())
        .isEqualTo(200);
    ManagementApi.Reply refused = api.post(namespaces(), Map.of("name", "obs"));
    assertThat(refused.status()).isEqualTo(403);
    assertThat(refused.detail()).contains("Iceberg is not enabled");
  }

  @Test
  void paginatedListingsSearchFilterSortAndPageInTheDatabase() {
    create(Map.of("name", "weather-raw", "metadata", Map.of("source", "stations")));
    create(Map.of("name", "weather", "metadata", Map.of("source", "stations")));
    create(Map.of("name", "traffic", "description", "road weather sensors"));
    create(Map.of("name", "sales"));
    createTable("sales", "orders");
    createTable("sales", "customers");

    JsonNode relevance = page("?search=weather");
    assertThat(names(relevance)).containsExactly("weather", "weather-raw", "traffic");
    assertThat(relevance.path("total").asInt()).isEqualTo(3);

    JsonNode filtered = page("?filter_metadata=%7B%22source%22%3A%22stations%22%7D&sort=name"
        + "&direction=asc");
    assertThat(names(filtered)).containsExactly("weather", "weather-raw");

    JsonNode paged = page("?sort=name&direction=asc&page=2&size=3");
    assertThat(names(paged)).containsExactly("weather-raw");
    assertThat(paged.path("total").asInt()).isEqualTo(4);
    assertThat(paged.path("pages").asInt()).isEqualTo(2);
    assertThat(paged.path("page").asInt()).isEqualTo(2);

    assertThat(names(page("?sort=tables")).get(0)).isEqualTo("sales");
    assertThat(names(page("")).get(0)).isEqualTo("sales");

    assertThat(api.get(namespaces() + "/paginated?size=0").status()).isEqualTo(422);
    assertThat(api.get(namespaces() + "/paginated?size=101").status()).isEqualTo(422);
    assertThat(api.get(namespaces() + "/paginated?page=0").status()).isEqualTo(422);
    assertThat(api.get(namespaces() + "/paginated?search=x&sort=name").status()).isEqualTo(422);
    assertThat(api.get(namespaces() + "/paginated?sort=relevance").status()).isEqualTo(422);
    assertThat(api.get(namespaces() + "/paginated?sort=sideways").status()).isEqualTo(422);
  }

  @Test
  void tableSummariesComeFromCatalogRows() {
    create(Map.of("name", "obs"));
    createTable("obs", "weather_daily");
    createTable("obs", "weather_hourly");
    createTable("obs", "traffic");

    JsonNode all = api.get(path("obs") + "/tables/paginated?sort=name&direction=asc").body();
    assertThat(names(all)).containsExactly("traffic", "weather_daily", "weather_hourly");
    JsonNode first = all.path("items").get(0);
    assertThat(first.path("namespace").asText()).isEqualTo("obs");
    assertThat(first.path("has_storage_override").asBoolean()).isFalse();
    assertThat(first.path("table_uuid").asText()).isNotEmpty();
    assertThat(first.path("effective_actions")).isNotEmpty();

    JsonNode searched = api.get(path("obs") + "/tables/paginated?search=weather&size=1").body();
    assertThat(searched.path("total").asInt()).isEqualTo(2);
    assertThat(searched.path("pages").asInt()).isEqualTo(2);
    assertThat(api.get(path("obs") + "/tables/paginated?sort=tables").status()).isEqualTo(422);
    assertThat(get("obs").path("table_count").asInt()).isEqualTo(3);
  }

  @Test
  void softDeleteHoldsTheNameUntilRestored() {
    JsonNode original = create(Map.of("name", "obs", "description", "kept"));
    assertThat(api.delete(path("obs")).status()).as("needs imsure").isEqualTo(422);
    assertThat(api.delete(path("obs") + "?imsure=true").status()).isEqualTo(204);

    assertThat(api.get(path("obs")).status()).isEqualTo(404);
    assertThat(names(api.get(namespaces()).body())).isEmpty();
    JsonNode ghosts = api.get(namespaces() + "?include_ghosts=true").body();
    assertThat(names(ghosts)).containsExactly("obs");
    assertThat(ghosts.get(0).path("deleted_at").isNull()).isFalse();
    assertThat(api.post(namespaces(), Map.of("name", "OBS")).status()).isEqualTo(409);

    JsonNode restored = api.post(path("obs") + "/restore", Map.of()).body();
    assertThat(restored.path("id")).isEqualTo(original.path("id"));
    assertThat(restored.path("prefix")).isEqualTo(original.path("prefix"));
    assertThat(restored.path("description").asText()).isEqualTo("kept");
    assertThat(get("obs").path("deleted_at").isNull()).isTrue();
  }

  @Test
  void aNamespaceHoldingTablesCannotBeDeleted() {
    create(Map.of("name", "obs"));
    createTable("obs", "t");
    ManagementApi.Reply refused = api.delete(path("obs") + "?imsure=true");
    assertThat(refused.status()).isEqualTo(409);
    assertThat(refused.detail()).contains("not empty");
  }

  @Test
  void immediateDeleteFreesTheNameAndTheCleanupEmptiesThePrefix() throws Exception {
    JsonNode first = create(Map.of("name", "scratch"));
    Path prefix = bucket.resolve(first.path("prefix").asText());
    Files.writeString(prefix.resolve("left-behind.parquet"), "bytes of a dropped table");

    assertThat(api.delete(path("scratch") + "?imsure=true&immediate=true").status())
        .isEqualTo(204);
    assertThat(api.post(path("scratch") + "/restore", Map.of()).status()).isEqualTo(404);
    JsonNode second = create(Map.of("name", "scratch"));
    assertThat(second.path("prefix")).isNotEqualTo(first.path("prefix"));

    JsonNode report = api.post("/orgs/" + org + "/iceberg/cleanup", Map.of()).body();
    assertThat(report.path("namespaces_purged").asInt()).isEqualTo(1);
    assertThat(prefix).doesNotExist();
    assertThat(bucket.resolve(second.path("prefix").asText())).exists();
  }

  @Test
  void retainDataRemovesOnlyTheCatalogEntry() throws Exception {
    JsonNode archive = create(Map.of("name", "archive"));
    Path prefix = bucket.resolve(archive.path("prefix").asText());
    Files.writeString(prefix.resolve("keep.parquet"), "precious");

    assertThat(api.delete(path("archive") + "?imsure=true&immediate=true&retain_data=true")
        .status()).isEqualTo(204);
    api.post("/orgs/" + org + "/iceberg/cleanup", Map.of());

    assertThat(prefix.resolve("keep.parquet")).hasContent("precious");
    assertThat(names(api.get(namespaces() + "?include_ghosts=true").body())).isEmpty();
  }

  @Test
  void theCleanupKeepsTheFilesOfATableRenamedIntoAnotherNamespace() {
    create(Map.of("name", "old"));
    create(Map.of("name", "new"));
    createTable("old", "moved");
    ManagementApi.Reply renamed = api.post("/iceberg/v1/" + org + "/tables/rename", Map.of(
        "source", Map.of("namespace", List.of("old"), "name", "moved"),
        "destination", Map.of("namespace", List.of("new"), "name", "moved")));
    assertThat(renamed.status()).isEqualTo(204);
    assertThat(api.delete(path("old") + "?imsure=true&immediate=true").status()).isEqualTo(204);

    JsonNode report = api.post("/orgs/" + org + "/iceberg/cleanup", Map.of()).body();

    assertThat(report.path("namespaces_kept").asInt()).isEqualTo(1);
    assertThat(api.get("/iceberg/v1/" + org + "/namespaces/new/tables/moved").status())
        .isEqualTo(200);
  }

  private JsonNode create(Map<String, Object> body) {
    ManagementApi.Reply reply = api.post(namespaces(), body);
    assertThat(reply.status()).as("create %s: %s", body, reply.body()).isEqualTo(201);
    return reply.body();
  }

  private JsonNode get(String name) {
    ManagementApi.Reply reply = api.get(path(name));
    assertThat(reply.status()).as("get %s: %s", name, reply.body()).isEqualTo(200);
    return reply.body();
  }

  private JsonNode patch(String name, Map<String, Object> body) {
    ManagementApi.Reply reply = api.patch(path(name), body);
    assertThat(reply.status()).as("patch %s: %s", body, reply.body()).isEqualTo(200);
    return reply.body();
  }

  private JsonNode page(String query) {
    ManagementApi.Reply reply = api.get(namespaces() + "/paginated" + query);
    assertThat(reply.status()).as("list %s: %s", query, reply.body()).isEqualTo(200);
    return reply.body();
  }

  /** Through the Iceberg REST catalog, as an engine creates it. */
  private void createTable(String namespace, String table) {
    ManagementApi.Reply reply = api.post("/iceberg/v1/" + org + "/namespaces/" + namespace
        + "/tables", Map.of("name", table, "schema", SCHEMA));
    assertThat(reply.status()).as("create table %s: %s", table, reply.body()).isEqualTo(200);
  }

  private static List<String> names(JsonNode listing) {
    JsonNode items = listing.isArray() ? listing : listing.path("items");
    return StreamSupport.stream(items.spliterator(), false)
        .map(item -> item.path("name").asText()).toList();
  }

  private String namespaces() {
    return "/orgs/" + org + "/iceberg/namespaces";
  }

  private String path(String name) {
    return namespaces() + "/" + name;
  }
}
