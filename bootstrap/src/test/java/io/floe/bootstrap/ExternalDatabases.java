package io.floe.bootstrap;

import io.floe.adapters.persistence.DatabaseSettings;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.UUID;

/**
 * The external PostgreSQL server the test command starts ({@code floe.test.database.url}, with
 * its user and password): a fresh, empty database on it for each test that asks.
 */
final class ExternalDatabases {
  static final String URL = "floe.test.database.url";

  private ExternalDatabases() {}

  static DatabaseSettings fresh() {
    String url = System.getProperty(URL);
    String user = System.getProperty("floe.test.database.user");
    String password = System.getProperty("floe.test.database.password");
    String name = "floe_boot_" + UUID.randomUUID().toString().replace("-", "").substring(0, 12);
    try (Connection connection = DriverManager.getConnection(url, user, password);
        Statement statement = connection.createStatement()) {
      statement.execute("create database " + name);
    } catch (SQLException e) {
      throw new IllegalStateException("cannot create a test database on " + url, e);
    }
    int path = url.indexOf('/', url.indexOf("//") + 2);
    int query = url.indexOf('?');
    String base = path < 0 ? (query < 0 ? url : url.substring(0, query)) : url.substring(0, path);
    return new DatabaseSettings(base + "/" + name + (query < 0 ? "" : url.substring(query)),
        user, password);
  }
}
