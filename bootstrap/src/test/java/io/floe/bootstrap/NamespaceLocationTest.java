package io.floe.bootstrap;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.floe.adapters.persistence.jooq.Database;
import io.floe.adapters.persistence.embedded.EmbeddedPostgresServer;
import io.floe.bootstrap.TestFloe.Org;
import java.nio.file.Path;
import java.util.Map;
import java.util.Set;
import org.apache.iceberg.Schema;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.exceptions.BadRequestException;
import org.apache.iceberg.rest.RESTCatalog;
import org.apache.iceberg.types.Types;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Every namespace tells engines where it lives: its real prefix as the read-only
 * {@code location} property, which a client can neither set nor remove, and which engines that
 * decide by it (Trino stages a create only when a namespace has one) find where tables go.
 */
class NamespaceLocationTest {
  private static final Schema SCHEMA = new Schema(
      Types.NestedField.required(1, "id", Types.LongType.get()));

  @TempDir
  Path directory;

  @Test
  void aNamespaceAnswersTheLocationItsTablesGoUnder() throws Exception {
    try (TestFloe floe = TestFloe.start(directory)) {
      Org org = floe.newOrg();
      try (RESTCatalog catalog = floe.catalog(org, Map.of())) {
        catalog.createNamespace(Namespace.of("obs"), mutable(Map.of("owner", "ci")));
        Map<String, String> properties = catalog.loadNamespaceMetadata(Namespace.of("obs"));
        String location = properties.get("location");
        assertThat(properties).containsEntry("owner", "ci");
        assertThat(location).startsWith(floe.localBucketDirectory(org.warehouse()).toUri()
            .toString().replaceFirst("/$", "")).contains("obs");
        String tableLocation = catalog.createTable(TableIdentifier.of("obs", "t"), SCHEMA)
            .location();
        assertThat(tableLocation).startsWith(location + "/");
      }
    }
  }

  @Test
  void theCreateAnswerCarriesTheLocationToo() throws Exception {
    try (TestFloe floe = TestFloe.start(directory)) {
      Org org = floe.newOrg();
      IcebergHttp http = new IcebergHttp(floe, org);
      IcebergHttp.Reply created = http.post("/namespaces",
          "{\"namespace\":[\"made\"],\"properties\":{\"owner\":\"ci\"}}");
      assertThat(created.status()).as("%s", created.body()).isEqualTo(200);
      try (RESTCatalog catalog = floe.catalog(org, Map.of())) {
        assertThat(created.body().path("properties").path("location").asText())
            .isEqualTo(catalog.loadNamespaceMetadata(Namespace.of("made")).get("location"));
      }
    }
  }

  @Test
  void aClientCannotSetOrRemoveTheLocation() throws Exception {
    try (TestFloe floe = TestFloe.start(directory)) {
      Org org = floe.newOrg();
      try (RESTCatalog catalog = floe.catalog(org, Map.of())) {
        assertThatThrownBy(() -> catalog.createNamespace(Namespace.of("placed"),
            mutable(Map.of("location", "file:///elsewhere"))))
            .isInstanceOf(BadRequestException.class)
            .hasMessageContaining("'location' is read-only");
        assertThat(catalog.namespaceExists(Namespace.of("placed"))).isFalse();

        catalog.createNamespace(Namespace.of("obs"));
        String location = catalog.loadNamespaceMetadata(Namespace.of("obs")).get("location");
        assertThatThrownBy(() -> catalog.setProperties(Namespace.of("obs"),
            mutable(Map.of("location", "file:///elsewhere"))))
            .isInstanceOf(BadRequestException.class).hasMessageContaining("read-only");
        assertThatThrownBy(() -> catalog.removeProperties(Namespace.of("obs"),
            new java.util.HashSet<>(Set.of("location"))))
            .isInstanceOf(BadRequestException.class).hasMessageContaining("read-only");
        assertThat(catalog.loadNamespaceMetadata(Namespace.of("obs")))
            .containsEntry("location", location);
      }
      ManagementApi api = new ManagementApi(floe.server().port(), org.token());
      ManagementApi.Reply refused = api.post("/orgs/" + org.warehouse() + "/iceberg/namespaces",
          Map.of("name", "managed", "properties", Map.of("location", "s3://b/elsewhere")));
      assertThat(refused.status()).as("%s", refused.body()).isEqualTo(400);
      assertThat(refused.body().path("detail").asText()).contains("read-only");
    }
  }

  @Test
  void aLocationAnEarlierVersionStoredIsDroppedByItsMigration() throws Exception {
    Path data;
    String real;
    try (TestFloe floe = TestFloe.start(directory)) {
      data = floe.settings().dataDir();
      Org org = floe.operators();
      try (RESTCatalog catalog = floe.catalog(org, Map.of())) {
        catalog.createNamespace(Namespace.of("legacy"));
        real = catalog.loadNamespaceMetadata(Namespace.of("legacy")).get("location");
      }
    }
    // As an earlier version left it: the client's location stored word for word. Then the
    // migration that upgrades such a database runs, as Flyway runs it (later migrations are
    // applied already, so its history row cannot simply be taken back).
    withDatabase(data, database -> {
      database.dsl().execute("update namespaces set properties = properties || "
          + "'{\"location\": \"s3://somewhere/else\"}'::jsonb where name = 'legacy'");
      assertThat(database.dsl().fetch("select properties::text from namespaces where name = "
          + "'legacy'").getValues(0, String.class)).singleElement().asString()
          .contains("s3://somewhere/else");
      // A plain statement, as Flyway sends a script: its jsonb "?" is no bind parameter.
      database.dsl().connection(connection -> {
        try (var statement = connection.createStatement()) {
          statement.execute(migration("V15__namespace_location_is_the_servers.sql"));
        }
      });
    });

    try (TestFloe floe = TestFloe.start(directory)) {
      try (RESTCatalog catalog = floe.catalog(floe.operators(), Map.of())) {
        assertThat(catalog.loadNamespaceMetadata(Namespace.of("legacy")))
            .containsEntry("location", real);
      }
    }
    withDatabase(data, database -> assertThat(database.dsl().fetch(
        "select properties::text from namespaces where name = 'legacy'").getValues(0,
        String.class)).singleElement().asString().doesNotContain("location"));
  }

  /** Iceberg's request builders probe for null keys, which {@code Map.of} refuses to answer. */
  private static Map<String, String> mutable(Map<String, String> properties) {
    return new java.util.HashMap<>(properties);
  }

  private static String migration(String name) {
    try (var in = Database.class.getResourceAsStream("/db/migration/" + name)) {
      assertThat(in).as("migration %s", name).isNotNull();
      return new String(in.readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
    } catch (java.io.IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
  }

  private static void withDatabase(Path data, java.util.function.Consumer<Database> work) {
    try (EmbeddedPostgresServer postgres = EmbeddedPostgresServer.start(data.resolve("postgres"));
        Database database = Database.open(postgres.settings(), 2)) {
      work.accept(database);
    }
  }
}
