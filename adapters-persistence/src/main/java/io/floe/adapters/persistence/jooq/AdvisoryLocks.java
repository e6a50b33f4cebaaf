package io.floe.adapters.persistence.jooq;

import io.floe.application.port.out.ServerWideLocks;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.Optional;
import java.util.function.Supplier;
import java.util.zip.CRC32;

/**
 * Server-wide locks as PostgreSQL session advisory locks: the lock lives on one pooled connection
 * held for as long as the work runs (the work itself uses others), and PostgreSQL releases it when
 * that session ends, however it ends.
 */
public final class AdvisoryLocks implements ServerWideLocks {
  /** The first half of every Floe lock's key, so that other users of the database never clash. */
  public static final int FLOE = 0x466c6f65; // "Floe"

  private final Database database;

  public AdvisoryLocks(Database database) {
    this.database = database;
  }

  @Override
  public <T> T runExclusively(String name, Supplier<T> work) {
    return locked(name, "select pg_advisory_lock(?, ?)", work)
        .orElseThrow(() -> new IllegalStateException("advisory lock not taken: " + name));
  }

  @Override
  public <T> Optional<T> runIfFree(String name, Supplier<T> work) {
    return locked(name, "select pg_try_advisory_lock(?, ?)", work);
  }

  private <T> Optional<T> locked(String name, String lockSql, Supplier<T> work) {
    int key = key(name);
    try (Connection connection = database.dataSource().getConnection()) {
      if (!execute(connection, lockSql, key)) {
        return Optional.empty();
      }
      try {
        return Optional.of(work.get());
      } finally {
        execute(connection, "select pg_advisory_unlock(?, ?)", key);
      }
    } catch (SQLException e) {
      throw new IllegalStateException("could not take or release the server-wide lock " + name,
          e);
    }
  }

  /**
   * Runs a lock function on Floe's lock {@code key}; its boolean answer, true for the void ones
   * (pg_advisory_lock and the like).
   */
  public static boolean execute(Connection connection, String sql, int key) throws SQLException {
    try (PreparedStatement statement = connection.prepareStatement(sql)) {
      statement.setInt(1, FLOE);
      statement.setInt(2, key);
      try (ResultSet result = statement.executeQuery()) {
        result.next();
        Object answer = result.getObject(1);
        return !(answer instanceof Boolean taken) || taken;
      }
    }
  }

  /** The second half of the key of the Floe lock called {@code name}. */
  public static int key(String name) {
    CRC32 crc = new CRC32();
    crc.update(name.getBytes(StandardCharsets.UTF_8));
    return (int) crc.getValue();
  }
}
