package io.floe.adapters.persistence;

import io.floe.adapters.persistence.embedded.EmbeddedPostgresServer;
import io.floe.adapters.persistence.jooq.SealingKey;
import io.floe.adapters.persistence.jooq.SecretCipher;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import java.util.Locale;
import java.util.UUID;

/**
 * PostgreSQL servers the persistence tests run against: the embedded server (always), and an
 * external one when {@code floe.test.database.url} names it. Every test class gets a fresh database
 * of its own on the server, so tests never see each other's rows.
 */
public final class TestDatabases {
  public static final String EXTERNAL_URL = "floe.test.database.url";
  private static EmbeddedPostgresServer embedded;

  private TestDatabases() {}

  public static synchronized DatabaseSettings embeddedServer() {
    if (embedded == null) {
      try {
        embedded = EmbeddedPostgresServer.start(
            Files.createTempDirectory("floe-pg-test").resolve("postgres"));
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
      Runtime.getRuntime().addShutdownHook(new Thread(embedded::close));
    }
    return embedded.settings();
  }

  /** A cipher with a key of its own, as a server that generated its key on first start has. */
  public static SecretCipher cipher() {
    return new SecretCipher(SealingKey.generate("a test key"), List.of());
  }

  public static DatabaseSettings externalServer() {
    return new DatabaseSettings(System.getProperty(EXTERNAL_URL),
        System.getProperty("floe.test.database.user"),
        System.getProperty("floe.test.database.password"));
  }

  /** Creates an empty database on the server and returns how to reach it. */
  public static DatabaseSettings freshDatabase(DatabaseSettings server) {
    String name = "floe_test_" + UUID.randomUUID().toString().replace("-", "").substring(0, 12)
        .toLowerCase(Locale.ROOT);
    try (Connection connection = DriverManager.getConnection(server.jdbcUrl(), server.user(),
        server.password()); Statement statement = connection.createStatement()) {
      statement.execute("create database " + name);
    } catch (SQLException e) {
      throw new IllegalStateException("cannot create a test database on " + server, e);
    }
    return new DatabaseSettings(withDatabase(server.jdbcUrl(), name), server.user(),
        server.password());
  }

  /** Replaces the database name in a JDBC URL, keeping host, port and parameters. */
  static String withDatabase(String jdbcUrl, String database) {
    int hostStart = jdbcUrl.indexOf("//") + 2;
    int pathStart = jdbcUrl.indexOf('/', hostStart);
    int query = jdbcUrl.indexOf('?');
    String base = pathStart < 0 ? (query < 0 ? jdbcUrl : jdbcUrl.substring(0, query))
        : jdbcUrl.substring(0, pathStart);
    return base + "/" + database + (query < 0 ? "" : jdbcUrl.substring(query));
  }
}
