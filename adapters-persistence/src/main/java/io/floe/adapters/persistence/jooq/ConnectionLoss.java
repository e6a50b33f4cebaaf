package io.floe.adapters.persistence.jooq;

import io.floe.application.port.out.DatabaseUnavailableException;
import java.sql.SQLException;
import java.sql.SQLTransientConnectionException;
import java.util.Set;
import javax.sql.DataSource;
import org.jooq.ExecuteContext;
import org.jooq.ExecuteListener;
import org.jooq.exception.DataAccessException;
import org.jooq.impl.DataSourceConnectionProvider;

/**
 * Which failures mean that PostgreSQL could not be reached, decided once: no connection could be
 * had (refused, the pool timed out waiting for one, the server starting or shutting down, out of
 * connections), or the one in use broke (closed, reset, its server process terminated). Such a
 * failure of a statement or of taking a connection becomes a {@link DatabaseUnavailableException};
 * whether a transaction it interrupted had committed is {@link CommitOutcomes}' question.
 */
final class ConnectionLoss implements ExecuteListener {
  /**
   * SQL states of a lost or refused connection besides class 08 (connection exception): the
   * server process was terminated (57P01 by an administrator or a shutdown, 57P02 by a crash of
   * another), could not take connections yet (57P03), or had none left (53300).
   */
  private static final Set<String> STATES = Set.of("57P01", "57P02", "57P03", "53300");

  /**
   * What HikariCP's stand-in for a connection it evicted answers to every call, without an SQL
   * state. It evicts one whose statement failed for a lost connection, and such a failure can go
   * unseen: jOOQ ignores a failure to release a savepoint, so the next statement of the
   * transaction is the first to fail, with this.
   */
  private static final String EVICTED = "Connection is closed";

  /** Whether {@code error}, or anything it was caused by or suppressed, is a lost connection. */
  static boolean in(Throwable error) {
    for (Throwable cause = error; cause != null; cause = cause.getCause()) {
      if (cause instanceof DatabaseUnavailableException
          || cause instanceof SQLTransientConnectionException
          || cause instanceof SQLException sql && lost(sql)) {
        return true;
      }
      for (Throwable suppressed : cause.getSuppressed()) {
        if (in(suppressed)) {
          return true;
        }
      }
      if (cause.getCause() == cause) {
        break;
      }
    }
    return false;
  }

  private static boolean lost(SQLException error) {
    String state = error.getSQLState();
    return state == null ? EVICTED.equals(error.getMessage())
        : state.startsWith("08") || STATES.contains(state);
  }

  /** {@code error} as what it means for the caller when it is a lost connection. */
  static RuntimeException translated(RuntimeException error) {
    return !(error instanceof DatabaseUnavailableException) && in(error)
        ? new DatabaseUnavailableException(error) : error;
  }

  @Override
  public void exception(ExecuteContext ctx) {
    if (ctx.exception() != null) {
      ctx.exception(translated(ctx.exception()));
    }
  }

  /** Connections from the pool; failing to get one is a lost connection like the others. */
  static final class Connections extends DataSourceConnectionProvider {
    Connections(DataSource dataSource) {
      super(dataSource);
    }

    @Override
    public java.sql.Connection acquire() {
      try {
        return super.acquire();
      } catch (DataAccessException e) {
        throw translated(e);
      }
    }
  }
}
