package io.floe.adapters.persistence.jooq;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.floe.adapters.persistence.DatabaseSettings;
import io.floe.adapters.persistence.TestDatabases;
import io.floe.application.port.out.DatabaseUnavailableException;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * A transaction whose connection is lost at any point is a {@link DatabaseUnavailableException},
 * on a real PostgreSQL whose server process for the transaction is ended under it: also where the
 * loss first shows as the pool's "closed" stand-in for the evicted connection, after a nested
 * transaction whose savepoint could not be released (jOOQ does not report that failure).
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class LostConnectionInTransactionTest {
  private DatabaseSettings settings;
  private Database database;

  @BeforeAll
  void open() {
    settings = TestDatabases.freshDatabase(TestDatabases.embeddedServer());
    database = Database.open(settings, 2);
  }

  @AfterAll
  void close() {
    database.close();
  }

  @Test
  void aLossWhileANestedTransactionEndsIsUnavailableNotAnInternalError() {
    assertThatThrownBy(() -> database.inTransaction(() -> {
      database.inTransaction(() -> {
        int process = value("select pg_backend_pid()");
        terminate(process); // before the savepoint is released
        return null;
      });
      return value("select 1");
    })).isInstanceOf(DatabaseUnavailableException.class);
    assertThat(database.inTransaction(() -> value("select 2")))
        .as("the pool serves again").isEqualTo(2);
  }

  @Test
  void aLossInTheMiddleOfATransactionIsUnavailable() {
    assertThatThrownBy(() -> database.inTransaction(() -> {
      terminate(value("select pg_backend_pid()"));
      return value("select 1");
    })).isInstanceOf(DatabaseUnavailableException.class);
  }

  private int value(String sql) {
    return ((Number) database.dsl().fetchValue(sql)).intValue();
  }

  /** Ends a server process from a connection of its own, and waits until it is gone. */
  private void terminate(int process) {
    try (Connection admin = DriverManager.getConnection(settings.jdbcUrl(), settings.user(),
        settings.password());
        PreparedStatement end = admin.prepareStatement("select pg_terminate_backend(?, 10000)")) {
      end.setInt(1, process);
      try (ResultSet row = end.executeQuery()) {
        row.next();
        assertThat(row.getBoolean(1)).as("the server process ended").isTrue();
      }
    } catch (SQLException e) {
      throw new IllegalStateException(e);
    }
  }
}
