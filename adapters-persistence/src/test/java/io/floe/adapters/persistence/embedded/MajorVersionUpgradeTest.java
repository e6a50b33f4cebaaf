package io.floe.adapters.persistence.embedded;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.floe.adapters.persistence.DatabaseSettings;
import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.flywaydb.core.Flyway;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Clusters older Floe versions made (PostgreSQL 14 through zonky, Floe's migrations, rows in
 * every table) move to the current major on the first start, with every row, and the old cluster
 * kept; an upgrade interrupted at any step finishes or starts over on the next start.
 */
class MajorVersionUpgradeTest {
  /** The schema version of the last Floe release that ran on PostgreSQL 14. */
  private static final String LAST_SCHEMA_ON_14 = "5";

  @TempDir
  Path dataDir;
  Path cluster;

  @BeforeEach
  void onlyWhereThePreviousMajorIsCarried() {
    assumeTrue(LegacyClusters.available(), "PostgreSQL 14 is carried for Linux x86_64 only");
    cluster = dataDir.resolve("postgres");
  }

  @Test
  void everyRowOfAPostgres14CatalogIsInThePostgres18OneAndTheOldClusterIsKept()
      throws Exception {
    Map<String, List<String>> before;
    try (EmbeddedPostgres legacy = LegacyClusters.start(cluster)) {
      before = fillCatalog(legacy);
    }
    assertThat(before.get("public.catalog_objects")).hasSize(2001);

    try (LogCapture log = new LogCapture();
        EmbeddedPostgresServer server = EmbeddedPostgresServer.start(cluster)) {
      assertThat(log.lines())
          .anyMatch(line -> line.contains("was made by PostgreSQL 14; upgrading it to "
              + "PostgreSQL " + PostgresBinaries.CURRENT.majorVersion()))
          .anyMatch(line -> line.contains("now requires the password"))
          .anyMatch(line -> line.matches(".*copied 1[0-9] tables \\(\\d+ rows\\).*"))
          .anyMatch(line -> line.contains("upgrade done"));
      assertThat(majorOf(server.settings())).isEqualTo(PostgresBinaries.CURRENT.majorVersion());
      assertThat(contents(server.settings())).isEqualTo(before);
      assertThatThrownBy(() -> DriverManager.getConnection(server.settings().jdbcUrl(),
          "postgres", null).close()).isInstanceOf(SQLException.class);
    }
    Path kept = dataDir.resolve("postgres-14.pre-upgrade");
    assertThat(Files.readString(kept.resolve("PG_VERSION")).strip()).isEqualTo("14");
    assertThat(cluster.resolve(MajorVersionUpgrade.COMPLETE_MARKER)).exists();
    assertThat(dataDir.resolve("postgres.upgrading")).doesNotExist();

    try (LogCapture log = new LogCapture();
        EmbeddedPostgresServer again = EmbeddedPostgresServer.start(cluster)) {
      assertThat(log.lines()).noneMatch(line -> line.contains("upgrad") && !line.contains(
          "holds the cluster as it was before an upgrade"));
      assertThat(log.lines()).anyMatch(line -> line.contains(kept.toString())
          && line.contains("holds the cluster as it was before an upgrade"));
      assertThat(contents(again.settings())).isEqualTo(before);
    }
  }

  @Test
  void anUpgradeInterruptedAtAnyStepFinishesOrStartsOverOnTheNextStart() throws Exception {
    Map<String, List<String>> before;
    try (EmbeddedPostgres legacy = LegacyClusters.start(cluster)) {
      before = fillCatalog(legacy);
    }
    Path upgrading = dataDir.resolve("postgres.upgrading");
    Path kept = dataDir.resolve("postgres-14.pre-upgrade");

    // Killed during the copy: a half-made new cluster.
    Files.createDirectories(upgrading.resolve("base"));
    Files.writeString(upgrading.resolve("PG_VERSION"), "18\n");
    try (LogCapture log = new LogCapture();
        EmbeddedPostgresServer server = EmbeddedPostgresServer.start(cluster)) {
      assertThat(log.lines()).anyMatch(line -> line.contains("discarding the unfinished upgrade"));
      assertThat(contents(server.settings())).isEqualTo(before);
    }

    // Killed between the two renames: the old cluster is aside, the whole new one not in place.
    Files.move(cluster, upgrading);
    try (LogCapture log = new LogCapture();
        EmbeddedPostgresServer server = EmbeddedPostgresServer.start(cluster)) {
      assertThat(log.lines()).anyMatch(line -> line.contains("finishing an interrupted upgrade"));
      assertThat(contents(server.settings())).isEqualTo(before);
    }

    // Killed after the new cluster was marked whole, before any rename.
    Files.move(cluster, upgrading);
    Files.move(kept, cluster);
    try (LogCapture log = new LogCapture();
        EmbeddedPostgresServer server = EmbeddedPostgresServer.start(cluster)) {
      assertThat(log.lines()).anyMatch(line -> line.contains("finishing an interrupted upgrade"));
      assertThat(contents(server.settings())).isEqualTo(before);
    }
    assertThat(Files.readString(kept.resolve("PG_VERSION")).strip()).isEqualTo("14");
    assertThat(upgrading).doesNotExist();
  }

  @Test
  void anUpgradeThatCannotCopyEverythingChangesNothingAndIsTriedAgainOnTheNextStart()
      throws Exception {
    Map<String, List<String>> before;
    try (EmbeddedPostgres legacy = LegacyClusters.start(cluster);
        Connection connection = legacy.getPostgresDatabase().getConnection();
        Statement statement = connection.createStatement()) {
      before = fillCatalog(legacy);
      statement.execute("create database notes");
    }
    assertThatThrownBy(() -> EmbeddedPostgresServer.start(cluster).close())
        .hasMessageContaining("databases Floe did not make (notes)");
    assertThat(Files.readString(cluster.resolve("PG_VERSION")).strip()).isEqualTo("14");
    assertThat(dataDir.resolve("postgres-14.pre-upgrade")).doesNotExist();

    // The operator moves the foreign database away (the old cluster has Floe's password now).
    ClusterAccess access = new ClusterAccess(dataDir.resolve("postgres.password"));
    try (Postmaster old = Postmaster.start(new PostgresCluster(cluster),
        PostgresBinaries.PREVIOUS, access.password());
        Connection connection = old.connect("postgres");
        Statement statement = connection.createStatement()) {
      statement.execute("drop database notes");
    }
    try (EmbeddedPostgresServer server = EmbeddedPostgresServer.start(cluster)) {
      assertThat(contents(server.settings())).isEqualTo(before);
    }
  }

  @Test
  void theServerAKilledFloeOfThePreviousVersionLeftRunningIsStoppedBeforeTheUpgrade()
      throws Exception {
    EmbeddedPostgres legacy = LegacyClusters.start(cluster);
    Map<String, List<String>> before = fillCatalog(legacy);
    long orphan = Long.parseLong(
        Files.readAllLines(cluster.resolve("postmaster.pid")).get(0).strip());
    // The old Floe is gone (kill -9): nobody stops its PostgreSQL.
    try (LogCapture log = new LogCapture();
        EmbeddedPostgresServer server = EmbeddedPostgresServer.start(cluster)) {
      assertThat(log.lines()).anyMatch(line -> line.contains("stopped the PostgreSQL server (PID "
          + orphan + ")"));
      assertThat(contents(server.settings())).isEqualTo(before);
    }
  }

  /**
   * Migrates the schema as the last Floe on PostgreSQL 14 left it (migrations up to
   * {@value #LAST_SCHEMA_ON_14}) and puts rows in every table: tricky text, JSON, NULLs, a 170 kB
   * value, two thousand tables. Returns every table's rows.
   */
  private static Map<String, List<String>> fillCatalog(EmbeddedPostgres legacy)
      throws SQLException {
    DatabaseSettings settings = new DatabaseSettings(legacy.getJdbcUrl("postgres", "postgres"),
        "postgres", "");
    Flyway.configure()
        .dataSource(settings.jdbcUrl(), settings.user(), settings.password())
        .locations("classpath:db/migration")
        .target(LAST_SCHEMA_ON_14)
        .load()
        .migrate();
    try (Connection connection = legacy.getPostgresDatabase().getConnection();
        Statement statement = connection.createStatement()) {
      statement.execute("""
          insert into orgs (id, name, iceberg_enabled) values
            ('00000000-0000-0000-0000-00000000000a', 'acme', true),
            ('00000000-0000-0000-0000-00000000000b', 'über-org', false);
          insert into bucket_configs (id, org_id, nickname, nickname_key, platform, bucket, prefix,
              endpoint, region, path_style, credentials, is_default) values
            ('00000000-0000-0000-0000-0000000000b1', '00000000-0000-0000-0000-00000000000a',
             'default', 'default', 'local', '/data/b', '', null, null, false,
             '{"secret": "tab\\there, newline\\nthere, backslash \\\\ and ✓"}', true),
            ('00000000-0000-0000-0000-0000000000b2', '00000000-0000-0000-0000-00000000000a',
             'Archive', 'archive', 's3', 'my-bucket', 'p/', 'http://127.0.0.1:9000',
             'eu-west-1', true, '{"access_key_id": "AK", "secret_access_key": "SK"}', false);
          insert into principals (id, kind, name, external_id, home_org_id) values
            ('00000000-0000-0000-0000-0000000000c1', 'API_CLIENT', 'admin', null,
             '00000000-0000-0000-0000-00000000000a'),
            ('00000000-0000-0000-0000-0000000000c2', 'USER', E'Ada\\tLovelace',
             'ada@example.com', '00000000-0000-0000-0000-00000000000a'),
            ('00000000-0000-0000-0000-0000000000c3', 'TEAM', 'analysts', null,
             '00000000-0000-0000-0000-00000000000a');
          insert into memberships values
            ('00000000-0000-0000-0000-00000000000a', '00000000-0000-0000-0000-0000000000c1', 'ADMIN'),
            ('00000000-0000-0000-0000-00000000000a', '00000000-0000-0000-0000-0000000000c2', 'MEMBER'),
            ('00000000-0000-0000-0000-00000000000a', '00000000-0000-0000-0000-0000000000c3', 'MEMBER');
          insert into team_members values
            ('00000000-0000-0000-0000-0000000000c3', '00000000-0000-0000-0000-0000000000c2');
          insert into api_tokens (id, principal_id, secret_hash, description, expires_at,
              last_used_at) values
            ('00000000-0000-0000-0000-0000000000d1', '00000000-0000-0000-0000-0000000000c1',
             'hash-1', 'admin', null, now()),
            ('00000000-0000-0000-0000-0000000000d2', '00000000-0000-0000-0000-0000000000c2',
             'hash-2', E'laptop\\n2', now() + interval '30 days', null);
          insert into namespaces (id, org_id, name, name_key, bucket_id, prefix, properties,
              description, metadata, deleted_at, purge_after, cleanup_attempts) values
            ('00000000-0000-0000-0000-0000000000e1', '00000000-0000-0000-0000-00000000000a',
             'observations', 'observations', '00000000-0000-0000-0000-0000000000b1', 'obs-1',
             '{"owner": "ada"}', 'Field data ✓', '{"k": [1, 2.5, {"x": null}]}', null, null, 0),
            ('00000000-0000-0000-0000-0000000000e2', '00000000-0000-0000-0000-00000000000a',
             'Old', 'old', '00000000-0000-0000-0000-0000000000b2', 'old-1', '{}', null, '{}',
             now(), now() + interval '7 days', 3);
          insert into org_names values
            ('00000000-0000-0000-0000-00000000000a', 'observations', 'NAMESPACE',
             '00000000-0000-0000-0000-0000000000e1');
          insert into catalog_objects (id, namespace_id, name, kind, metadata_location, bucket_id,
              location) values
            ('00000000-0000-0000-0000-0000000000f1', '00000000-0000-0000-0000-0000000000e1', 't1',
             'TABLE', 'file:/data/b/obs-1/t1-x/metadata/00001.metadata.json',
             '00000000-0000-0000-0000-0000000000b1', 'file:/data/b/obs-1/t1-x');
          insert into catalog_objects (id, namespace_id, name, kind, metadata_location, bucket_id,
              location)
            select gen_random_uuid(), '00000000-0000-0000-0000-0000000000e1', 'table_' || n,
              case when n % 10 = 0 then 'VIEW' else 'TABLE' end,
              'file:/data/b/obs-1/t' || n || '/metadata/00000.metadata.json',
              '00000000-0000-0000-0000-0000000000b1', 'file:/data/b/obs-1/t' || n
            from generate_series(1, 2000) n;
          insert into prefix_claims (bucket_id, prefix, owner_kind, owner_id) values
            ('00000000-0000-0000-0000-0000000000b1', 'obs-1', 'NAMESPACE',
             '00000000-0000-0000-0000-0000000000e1'),
            ('00000000-0000-0000-0000-0000000000b1', 'obs-1/t1-x', 'TABLE',
             '00000000-0000-0000-0000-0000000000f1');
          insert into grants (id, org_id, principal_id, namespace_id, table_id, action) values
            ('00000000-0000-0000-0000-000000000101', '00000000-0000-0000-0000-00000000000a',
             '00000000-0000-0000-0000-0000000000c2', '00000000-0000-0000-0000-0000000000e1', null,
             'READ'),
            ('00000000-0000-0000-0000-000000000102', '00000000-0000-0000-0000-00000000000a',
             '00000000-0000-0000-0000-0000000000c3', '00000000-0000-0000-0000-0000000000e1',
             '00000000-0000-0000-0000-0000000000f1', 'WRITE');
          insert into idempotency_records (org_id, key, operation, status, body, expires_at) values
            ('00000000-0000-0000-0000-00000000000a', 'key-1', 'commit', 200,
             repeat('{"metadata": "x"}', 10000), now() + interval '30 minutes');
          insert into repos (id, org_id, name, name_key, bucket_id, prefix, description) values
            ('00000000-0000-0000-0000-000000000201', '00000000-0000-0000-0000-00000000000a',
             'weather', 'weather', '00000000-0000-0000-0000-0000000000b1', 'weather-r', null);
          insert into pending_creations values
            ('00000000-0000-0000-0000-000000000301', '00000000-0000-0000-0000-00000000000a',
             'REPO', 'half-made', '00000000-0000-0000-0000-0000000000b1', 'half-1', now());
          """);
    }
    return contents(legacy.getPostgresDatabase().getConnection());
  }

  private static int majorOf(DatabaseSettings settings) throws SQLException {
    try (Connection connection = connect(settings); Statement statement =
        connection.createStatement(); ResultSet rows = statement.executeQuery("show server_version_num")) {
      rows.next();
      return rows.getInt(1) / 10000;
    }
  }

  private static Map<String, List<String>> contents(DatabaseSettings settings)
      throws SQLException {
    return contents(connect(settings));
  }

  /** Every row of every table, as PostgreSQL prints it, sorted. Closes the connection. */
  static Map<String, List<String>> contents(Connection connection) throws SQLException {
    try (connection; Statement statement = connection.createStatement()) {
      statement.execute("set timezone = 'UTC'");
      List<String> tables = new ArrayList<>();
      try (ResultSet rows = statement.executeQuery("select schemaname || '.' || tablename "
          + "from pg_tables where schemaname = 'public'")) {
        while (rows.next()) {
          tables.add(rows.getString(1));
        }
      }
      Map<String, List<String>> contents = new TreeMap<>();
      for (String table : tables) {
        List<String> rows = new ArrayList<>();
        try (ResultSet result = statement.executeQuery("select t::text from " + table
            + " t order by 1")) {
          while (result.next()) {
            rows.add(result.getString(1));
          }
        }
        contents.put(table, rows);
      }
      return contents;
    }
  }

  private static Connection connect(DatabaseSettings settings) throws SQLException {
    return DriverManager.getConnection(settings.jdbcUrl(), settings.user(), settings.password());
  }
}
