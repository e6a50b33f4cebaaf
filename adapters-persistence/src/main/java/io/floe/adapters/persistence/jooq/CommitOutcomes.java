package io.floe.adapters.persistence.jooq;

import io.floe.adapters.persistence.DatabaseSettings;
import io.floe.application.port.out.DatabaseUnavailableException;
import io.floe.application.port.out.TransactionOutcomeUnknownException;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.util.Locale;
import java.util.Properties;
import java.util.function.Supplier;
import org.jooq.DSLContext;
import org.jooq.ExecuteContext;
import org.jooq.ExecuteListener;
import org.jooq.ExecuteType;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What became of a transaction whose connection broke while it committed. A failure before the
 * {@code COMMIT} was sent leaves nothing behind: PostgreSQL ends a transaction whose client is
 * gone without committing it. A failure during the {@code COMMIT} leaves the client without an
 * answer the server may well have acted on, and only the server can tell: every transaction that
 * writes gets an id, and {@code pg_xact_status} says whether the transaction of an id committed.
 *
 * <p>So a transaction that wrote asks for its id (and its server process) just before it commits,
 * one round trip; one that wrote nothing pays nothing. When its commit then fails for a lost
 * connection, a new connection (not from the pool, whose connections may all be broken) asks for
 * the outcome, again and again for up to {@link #PATIENCE} while the server restarts. A
 * transaction still in progress belongs to a server process whose client is gone, so it is ended
 * first ({@code pg_terminate_backend}; a process in the middle of committing finishes that before
 * it ends). Committed: the work's result is returned as if nothing had happened. Not committed:
 * {@link DatabaseUnavailableException}. No answer within the time: only then
 * {@link TransactionOutcomeUnknownException}.
 */
final class CommitOutcomes implements ExecuteListener {
  private static final Logger LOG = LoggerFactory.getLogger(CommitOutcomes.class);
  /** How long a broken commit's outcome is asked for: long enough for a server to restart. */
  static final Duration PATIENCE = Duration.ofSeconds(15);
  private static final Duration PAUSE = Duration.ofMillis(250);
  private static final int CONNECT_TIMEOUT_SECONDS = 2;
  private static final int SOCKET_TIMEOUT_SECONDS = 5;

  private enum Outcome { COMMITTED, NOT_COMMITTED }

  /** A transaction about to commit: its id (null when it wrote nothing) and the work's result. */
  private record Committing(String transactionId, int serverProcess, Object result) {}

  private final DatabaseSettings settings;
  /** Whether the calling thread's transaction has sent anything but a plain query. */
  private final ThreadLocal<Boolean> wrote = ThreadLocal.withInitial(() -> false);
  private final ThreadLocal<Committing> committing = new ThreadLocal<>();

  CommitOutcomes(DatabaseSettings settings) {
    this.settings = settings;
  }

  @Override
  public void executeStart(ExecuteContext ctx) {
    String sql = ctx.sql();
    if (ctx.type() != ExecuteType.READ || sql == null
        || !sql.stripLeading().toLowerCase(Locale.ROOT).startsWith("select")) {
      wrote.set(true);
    }
  }

  /**
   * Runs {@code transaction}, the outermost transaction of this thread, whose work ends with
   * {@link #beforeCommit}; returns its result if it committed, whatever became of its connection.
   */
  <T> T commit(Supplier<T> transaction) {
    wrote.set(false);
    try {
      return transaction.get();
    } catch (RuntimeException e) {
      if (!ConnectionLoss.in(e)) {
        throw e;
      }
      Committing pending = committing.get();
      if (pending == null || pending.transactionId() == null) {
        throw ConnectionLoss.translated(e); // it broke before the commit, or wrote nothing
      }
      LOG.warn("the connection broke while transaction {} committed; asking the database what "
          + "became of it", pending.transactionId());
      if (outcome(pending, e) == Outcome.NOT_COMMITTED) {
        throw new DatabaseUnavailableException(e);
      }
      @SuppressWarnings("unchecked")
      T result = (T) pending.result();
      return result;
    } finally {
      committing.remove();
      wrote.remove();
    }
  }

  /**
   * The last step of a transaction's work, on its connection: notes the transaction's id if it
   * wrote anything, and passes the work's {@code result} through.
   */
  <T> T beforeCommit(DSLContext dsl, T result) {
    if (!wrote.get()) {
      committing.set(new Committing(null, 0, result));
      return result;
    }
    committing.set(dsl.connectionResult(connection -> {
      try (PreparedStatement query = connection.prepareStatement(
              "select pg_current_xact_id_if_assigned()::text, pg_backend_pid()");
          ResultSet row = query.executeQuery()) {
        row.next();
        return new Committing(row.getString(1), row.getInt(2), result);
      }
    }));
    return result;
  }

  private Outcome outcome(Committing pending, RuntimeException failure) {
    long deadline = System.nanoTime() + PATIENCE.toNanos();
    while (true) {
      try (Connection connection = connect()) {
        String status = status(connection, pending.transactionId());
        if ("committed".equals(status)) {
          LOG.warn("transaction {} committed before its connection broke", pending.transactionId());
          return Outcome.COMMITTED;
        }
        if ("aborted".equals(status)) {
          LOG.warn("transaction {} did not commit", pending.transactionId());
          return Outcome.NOT_COMMITTED;
        }
        if ("in progress".equals(status)) {
          endAbandoned(connection, pending);
        }
      } catch (SQLException e) {
        LOG.debug("transaction {}: the database does not answer yet: {}",
            pending.transactionId(), e.getMessage());
      }
      if (System.nanoTime() - deadline > 0) {
        LOG.error("transaction {}: the database stayed unreachable for {} s; whether it "
            + "committed is unknown", pending.transactionId(), PATIENCE.toSeconds());
        throw new TransactionOutcomeUnknownException(failure);
      }
      pause(failure);
    }
  }

  private static String status(Connection connection, String transactionId)
      throws SQLException {
    try (PreparedStatement query = connection.prepareStatement(
        "select pg_xact_status(?::xid8)")) {
      query.setString(1, transactionId);
      try (ResultSet row = query.executeQuery()) {
        row.next();
        return row.getString(1);
      }
    }
  }

  /**
   * Ends the server process still running the transaction: its client is gone, and until it ends
   * its transaction neither commits nor aborts. The process id is checked against the transaction
   * so that no other session is ended.
   */
  private static void endAbandoned(Connection connection, Committing pending)
      throws SQLException {
    try (PreparedStatement end = connection.prepareStatement("select pg_terminate_backend(pid) "
        + "from pg_stat_activity where pid = ? and backend_xid = ?::xid8::xid")) {
      end.setInt(1, pending.serverProcess());
      end.setString(2, pending.transactionId());
      end.executeQuery().close();
    }
  }

  private Connection connect() throws SQLException {
    Properties properties = new Properties();
    if (settings.user() != null) {
      properties.setProperty("user", settings.user());
    }
    if (settings.password() != null) {
      properties.setProperty("password", settings.password());
    }
    properties.setProperty("connectTimeout", Integer.toString(CONNECT_TIMEOUT_SECONDS));
    properties.setProperty("socketTimeout", Integer.toString(SOCKET_TIMEOUT_SECONDS));
    return DriverManager.getConnection(settings.jdbcUrl(), properties);
  }

  private static void pause(RuntimeException failure) {
    try {
      Thread.sleep(PAUSE.toMillis());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new TransactionOutcomeUnknownException(failure);
    }
  }
}
