package io.floe.bootstrap;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.floe.adapters.persistence.DatabaseSettings;
import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import org.apache.iceberg.HasTableOperations;
import org.apache.iceberg.Schema;
import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.exceptions.ForbiddenException;
import org.apache.iceberg.rest.RESTCatalog;
import org.apache.iceberg.types.Types;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A data directory the previous Floe made and used (its catalog on the embedded PostgreSQL 14)
 * is served whole by this one after the upgrade to the current PostgreSQL: the same rows, the
 * same tokens and grants, the same table metadata, and new commits land.
 */
class EmbeddedPostgresUpgradeTest {
  private static final String PREVIOUS_BUNDLE = "floe/postgres-previous/postgres-%s-%s.txz";
  private static final TableIdentifier TABLE = TableIdentifier.of("survives", "readings");

  @Test
  void theCatalogAFloeKeptOnPostgres14IsServedWholeAfterTheUpgrade(@TempDir Path dataDir)
      throws Exception {
    assumeTrue(bundle("Linux", "x86_64") != null && System.getProperty("os.name")
        .startsWith("Linux") && System.getProperty("os.arch").equals("amd64"),
        "PostgreSQL 14 is carried for Linux x86_64 only");
    ServerSettings embedded = TestSettings.defaults(dataDir).build();
    String admin;
    String adaToken;
    String metadataLocation;
    Map<String, Long> rowsBefore;
    try (EmbeddedPostgres legacy = startLegacy(embedded.embeddedPostgresDir())) {
      // The previous Floe on its embedded PostgreSQL 14, which trusted local connections.
      ServerSettings onLegacy = embedded.withDatabase(Optional.of(new DatabaseSettings(
          legacy.getJdbcUrl("postgres", "postgres"), "postgres", "")));
      try (FloeServer floe = FloeServer.start(onLegacy)) {
        admin = Files.readString(onLegacy.adminTokenFile()).strip();
        ManagementApi api = new ManagementApi(floe.port(), admin);
        try (RESTCatalog catalog = catalog(floe, admin)) {
          catalog.createNamespace(TABLE.namespace());
          Table table = catalog.createTable(TABLE, new Schema(
              Types.NestedField.required(1, "id", Types.LongType.get()),
              Types.NestedField.optional(2, "place", Types.StringType.get())));
          for (int i = 0; i < 3; i++) {
            table.updateProperties().set("round-" + i, "née ✓ " + i).commit();
          }
          metadataLocation = metadataLocation(catalog.loadTable(TABLE));
        }
        String ada = api.post("/orgs/my-org/users", Map.of("name", "Ada",
            "external_id", "ada@example.com")).body().get("id").asText();
        assertThat(api.post("/orgs/my-org/grants", Map.of("principal_id", ada,
            "namespace", "survives", "action", "read")).status()).isEqualTo(201);
        adaToken = api.post("/orgs/my-org/tokens", Map.of("principal_id", ada,
            "expires_in_seconds", 86_400)).body().get("token").asText();
        assertThat(api.post("/orgs/my-org/repos", Map.of("name", "weather")).status())
            .isEqualTo(201);
      }
      rowsBefore = rowCounts(legacy.getPostgresDatabase().getConnection());
    }

    // This Floe on the same data directory, with its embedded default.
    try (FloeServer floe = FloeServer.start(embedded)) {
      assertThat(Files.readString(dataDir.resolve("postgres-14.pre-upgrade/PG_VERSION")).strip())
          .isEqualTo("14");
      assertThat(Integer.parseInt(Files.readString(dataDir.resolve("postgres/PG_VERSION"))
          .strip())).isGreaterThanOrEqualTo(17);
      Map<String, Long> rowsAfter = rowCounts(embeddedConnection(dataDir));
      assertThat(rowsAfter).containsAllEntriesOf(withoutMigrationHistory(rowsBefore));
      assertThat(rowsAfter.get("flyway_schema_history"))
          .isGreaterThanOrEqualTo(rowsBefore.get("flyway_schema_history"));

      try (RESTCatalog catalog = catalog(floe, admin)) {
        Table table = catalog.loadTable(TABLE);
        assertThat(metadataLocation(table)).isEqualTo(metadataLocation);
        assertThat(table.properties()).containsEntry("round-2", "née ✓ 2");
        table.updateProperties().set("after-upgrade", "yes").commit();
        assertThat(catalog.loadTable(TABLE).properties()).containsEntry("after-upgrade", "yes");
        catalog.createNamespace(Namespace.of("fresh"));
      }
      try (RESTCatalog asAda = catalog(floe, adaToken)) {
        assertThat(asAda.loadTable(TABLE).properties()).containsEntry("after-upgrade", "yes");
        assertThatThrownBy(() -> asAda.loadTable(TABLE).updateProperties().set("x", "y")
            .commit()).isInstanceOf(ForbiddenException.class);
      }
      assertThat(new ManagementApi(floe.port(), admin).get("/orgs/my-org/repos").body()
          .findValuesAsText("name")).contains("weather");
    }
  }

  /** PostgreSQL 14 started the way the previous Floe started it (zonky's launcher). */
  private static EmbeddedPostgres startLegacy(Path directory) throws Exception {
    return EmbeddedPostgres.builder()
        .setPgBinaryResolver(EmbeddedPostgresUpgradeTest::bundle)
        .setDataDirectory(directory)
        .setCleanDataDirectory(false)
        .setRegisterShutdownHook(false)
        .setServerConfig("listen_addresses", "127.0.0.1")
        .start();
  }

  private static InputStream bundle(String system, String hardware) {
    return EmbeddedPostgresUpgradeTest.class.getClassLoader().getResourceAsStream(
        String.format(PREVIOUS_BUNDLE, system.toLowerCase(Locale.ROOT), hardware));
  }

  /** The upgraded cluster, reached the way Floe reaches it: its port and its password file. */
  private static Connection embeddedConnection(Path dataDir) throws Exception {
    List<String> pid = Files.readAllLines(dataDir.resolve("postgres/postmaster.pid"));
    String password = Files.readString(dataDir.resolve("postgres.password")).strip();
    return DriverManager.getConnection("jdbc:postgresql://127.0.0.1:" + pid.get(3).strip()
        + "/postgres", "postgres", password);
  }

  private static Map<String, Long> rowCounts(Connection connection) throws SQLException {
    try (connection; Statement statement = connection.createStatement()) {
      List<String> tables = new ArrayList<>();
      try (ResultSet rows = statement.executeQuery(
          "select tablename from pg_tables where schemaname = 'public'")) {
        while (rows.next()) {
          tables.add(rows.getString(1));
        }
      }
      Map<String, Long> counts = new TreeMap<>();
      for (String table : tables) {
        try (ResultSet rows = statement.executeQuery("select count(*) from " + table)) {
          rows.next();
          counts.put(table, rows.getLong(1));
        }
      }
      return counts;
    }
  }

  private static Map<String, Long> withoutMigrationHistory(Map<String, Long> counts) {
    Map<String, Long> copy = new TreeMap<>(counts);
    copy.remove("flyway_schema_history");
    return copy;
  }

  private static String metadataLocation(Table table) {
    return ((HasTableOperations) table).operations().current().metadataFileLocation();
  }

  private static RESTCatalog catalog(FloeServer server, String token) {
    RESTCatalog catalog = new RESTCatalog();
    catalog.setConf(new org.apache.hadoop.conf.Configuration());
    catalog.initialize("floe", Map.of("uri", server.catalogUri(), "warehouse", "my-org",
        "token", token));
    return catalog;
  }
}
