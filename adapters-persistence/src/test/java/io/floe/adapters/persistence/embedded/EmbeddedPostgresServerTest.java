package io.floe.adapters.persistence.embedded;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.floe.adapters.persistence.DatabaseSettings;
import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The embedded PostgreSQL as {@code floe serve} starts it: durable, by password, repaired. */
class EmbeddedPostgresServerTest {
  @TempDir
  Path dataDir;

  @Test
  void aNewClusterIsDurableListensOnLoopbackAndRefusesEveryLoginWithoutItsPassword()
      throws Exception {
    Path cluster = dataDir.resolve("postgres");
    try (EmbeddedPostgresServer server = EmbeddedPostgresServer.start(cluster)) {
      DatabaseSettings settings = server.settings();
      Path passwordFile = dataDir.resolve("postgres.password");
      assertThat(Files.readString(passwordFile).strip()).isEqualTo(settings.password())
          .hasSize(64);
      assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(passwordFile)))
          .isEqualTo("rw-------");
      assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(cluster)))
          .isEqualTo("rwx------");
      assertThat(Files.readString(cluster.resolve("pg_hba.conf")))
          .isEqualTo(ClusterAccess.RULES).doesNotContain("trust");

      try (Connection connection = DriverManager.getConnection(settings.jdbcUrl(),
          settings.user(), settings.password())) {
        assertThat(setting(connection, "fsync")).isEqualTo("on");
        assertThat(setting(connection, "synchronous_commit")).isEqualTo("on");
        assertThat(setting(connection, "full_page_writes")).isEqualTo("on");
        assertThat(setting(connection, "listen_addresses")).isEqualTo("127.0.0.1");
        assertThat(setting(connection, "unix_socket_directories")).isEmpty();
        assertThat(Integer.parseInt(setting(connection, "server_version_num")) / 10000)
            .isEqualTo(PostgresBinaries.CURRENT.majorVersion()).isGreaterThanOrEqualTo(17);
      }
      for (String database : List.of("postgres", "template1")) {
        String url = settings.jdbcUrl().replace("/postgres", "/" + database);
        assertThatThrownBy(() -> DriverManager.getConnection(url, "postgres", null).close())
            .isInstanceOf(SQLException.class).hasMessageContaining("password");
        assertThatThrownBy(() -> DriverManager.getConnection(url, "postgres", "postgres").close())
            .isInstanceOf(SQLException.class)
            .hasMessageContaining("password authentication failed");
      }
    }
  }

  @Test
  void aClusterThatTrustedLocalConnectionsGetsThePasswordBeforeItsServerStarts()
      throws Exception {
    Path cluster = dataDir.resolve("postgres");
    // The way Floe made its clusters before: zonky's initdb -A trust.
    try (EmbeddedPostgres trusting = EmbeddedPostgres.builder().setDataDirectory(cluster)
        .setCleanDataDirectory(false).setRegisterShutdownHook(false)
        .setServerConfig("listen_addresses", "127.0.0.1").start();
        Connection connection = trusting.getPostgresDatabase().getConnection();
        Statement statement = connection.createStatement()) {
      statement.execute("create table kept (v text); insert into kept values ('still here')");
    }
    assertThat(Files.readString(cluster.resolve("pg_hba.conf"))).contains("trust");

    try (LogCapture log = new LogCapture();
        EmbeddedPostgresServer server = EmbeddedPostgresServer.start(cluster)) {
      assertThat(log.lines()).anyMatch(line -> line.contains("now requires the password"));
      DatabaseSettings settings = server.settings();
      assertThatThrownBy(() -> DriverManager.getConnection(settings.jdbcUrl(), "postgres", null)
          .close()).isInstanceOf(SQLException.class);
      try (Connection connection = DriverManager.getConnection(settings.jdbcUrl(),
          settings.user(), settings.password()); Statement statement = connection.createStatement();
          ResultSet rows = statement.executeQuery("select v from kept")) {
        assertThat(rows.next()).isTrue();
        assertThat(rows.getString(1)).isEqualTo("still here");
      }
      assertThat(Files.readString(cluster.resolve("pg_hba.conf"))).isEqualTo(ClusterAccess.RULES);
    }
  }

  @Test
  void theNextStartStopsTheServerThatADeadFloeLeftRunning() throws Exception {
    Path directory = dataDir.resolve("postgres");
    try (EmbeddedPostgresServer first = EmbeddedPostgresServer.start(directory)) {
      first.settings(); // made the cluster
    }
    // What a Floe killed with -9 leaves: its server running, its lock released by the system.
    PostgresCluster cluster = new PostgresCluster(directory);
    ClusterAccess access = new ClusterAccess(dataDir.resolve("postgres.password"));
    Postmaster orphan = Postmaster.start(cluster, PostgresBinaries.CURRENT, access.password());
    ProcessHandle orphanProcess = ProcessHandle.of(orphan.pid()).orElseThrow();

    try (LogCapture log = new LogCapture();
        EmbeddedPostgresServer next = EmbeddedPostgresServer.start(directory)) {
      assertThat(log.lines()).anyMatch(line -> line.startsWith("WARN")
          && line.contains("stopped the PostgreSQL server (PID " + orphan.pid() + ")"));
      assertThat(OrphanPostmaster.isRunning(orphanProcess)).isFalse();
      assertThat(query(next.settings(), "select 1")).isEqualTo("1");
    } finally {
      orphan.close();
    }
  }

  @Test
  void aStalePostmasterPidFileWhoseNumberIsNowAnotherProgramDoesNotStopTheStart()
      throws Exception {
    Path directory = dataDir.resolve("postgres");
    try (EmbeddedPostgresServer first = EmbeddedPostgresServer.start(directory)) {
      first.settings();
    }
    // After a power loss the file is left, and its number may belong to any process by now.
    Process other = new ProcessBuilder("sleep", "60").start();
    try {
      Files.writeString(directory.resolve("postmaster.pid"), other.pid() + "\n" + directory
          + "\n1700000000\n5432\n\n127.0.0.1\n  5432001    32768\nready   \n");
      try (LogCapture log = new LogCapture();
          EmbeddedPostgresServer next = EmbeddedPostgresServer.start(directory)) {
        assertThat(log.lines()).anyMatch(line -> line.contains("removed the stale")
            && line.contains("PID " + other.pid() + " is now another program"));
        assertThat(other.isAlive()).as("the other program is left alone").isTrue();
        assertThat(query(next.settings(), "select 1")).isEqualTo("1");
      }
    } finally {
      other.destroy();
      other.waitFor(10, TimeUnit.SECONDS);
    }
    // Its number now belongs to no process: PostgreSQL removes the file itself.
    Files.writeString(directory.resolve("postmaster.pid"), other.pid() + "\n" + directory
        + "\n1700000000\n5432\n\n127.0.0.1\n  5432001    32768\nready   \n");
    try (LogCapture log = new LogCapture();
        EmbeddedPostgresServer next = EmbeddedPostgresServer.start(directory)) {
      assertThat(log.lines()).anyMatch(line -> line.contains("did not stop cleanly (its PID "
          + other.pid() + " is gone)"));
      assertThat(query(next.settings(), "select 1")).isEqualTo("1");
    }
  }

  @Test
  void aSecondProcessCannotRunTheSameCluster() {
    Path directory = dataDir.resolve("postgres");
    try (EmbeddedPostgresServer first = EmbeddedPostgresServer.start(directory)) {
      assertThatThrownBy(() -> EmbeddedPostgresServer.start(directory).close())
          .isInstanceOf(IllegalStateException.class)
          .hasMessageContaining("another Floe process");
      assertThat(query(first.settings(), "select 1")).isEqualTo("1");
    }
  }

  private static String setting(Connection connection, String name) throws SQLException {
    try (Statement statement = connection.createStatement();
        ResultSet rows = statement.executeQuery("show " + name)) {
      rows.next();
      return rows.getString(1);
    }
  }

  private static String query(DatabaseSettings settings, String sql) {
    try (Connection connection = DriverManager.getConnection(settings.jdbcUrl(), settings.user(),
        settings.password()); Statement statement = connection.createStatement();
        ResultSet rows = statement.executeQuery(sql)) {
      rows.next();
      return rows.getString(1);
    } catch (SQLException e) {
      throw new IllegalStateException(e);
    }
  }
}
