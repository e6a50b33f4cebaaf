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
import java.time.OffsetDateTime;
import java.util.Locale;
import java.util.Optional;
import java.util.Properties;
import java.util.UUID;
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
 * <p>So a transaction that wrote asks for its id, its server process and when its server started
 * just before it commits, one round trip; one that wrote nothing pays nothing. When its commit
 * then fails for a lost connection, a new connection (not from the pool, whose connections may all
 * be broken) asks for the outcome, again and again for up to {@link #PATIENCE} while the server
 * restarts. A transaction still in progress belongs to a server process whose client is gone, so
 * it is ended first ({@code pg_terminate_backend}; a process in the middle of committing finishes
 * that before it ends). Committed: the work's result is returned as if nothing had happened. Not
 * committed: {@link DatabaseUnavailableException}. No answer within the time: only then
 * {@link TransactionOutcomeUnknownException}.
 *
 * <p>A server that restarted meanwhile no longer speaks for the id: a crash loses a transaction
 * whose records never reached the write-ahead log on disk, and the restarted server hands its id
 * to the next transaction, whose commit {@code pg_xact_status} would then report. The transaction
 * is certainly no longer running, so a row it wrote decides: the audit row a change writes in its
 * own transaction carries an event id drawn at random, its {@link #witnessedBy witness}. Without
 * one, only "not committed" answers are certain; "committed" leaves the outcome unknown.
 */
final class CommitOutcomes implements ExecuteListener {
  private static final Logger LOG = LoggerFactory.getLogger(CommitOutcomes.class);
  /** How long a broken commit's outcome is asked for: long enough for a server to restart. */
  static final Duration PATIENCE = Duration.ofSeconds(15);
  private static final Duration PAUSE = Duration.ofMillis(250);
  private static final int CONNECT_TIMEOUT_SECONDS = 2;
  private static final int SOCKET_TIMEOUT_SECONDS = 5;

  /** The SQL state of {@code pg_xact_status} for an id its server never handed out. */
  private static final String NOT_YET_ASSIGNED = "22023";

  enum Outcome { COMMITTED, NOT_COMMITTED }

  /**
   * A transaction about to commit: its id (null when it wrote nothing), its server process, when
   * its server started, the event id of a row only it wrote (null when none) and the work's
   * result.
   */
  record Committing(String transactionId, int serverProcess, OffsetDateTime serverStarted,
      UUID witness, Object result) {}

  private final DatabaseSettings settings;
  /** Whether the calling thread's transaction has sent anything but a plain query. */
  private final ThreadLocal<Boolean> wrote = ThreadLocal.withInitial(() -> false);
  private final ThreadLocal<Committing> committing = new ThreadLocal<>();
  /** The witness of the calling thread's open transaction; null outside one, empty before one. */
  private final ThreadLocal<Optional<UUID>> witness = new ThreadLocal<>();

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
    witness.set(Optional.empty());
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
      witness.remove();
    }
  }

  /**
   * Notes that the calling thread's open transaction wrote the audit row of {@code eventId}:
   * the row exists afterwards exactly when the transaction committed. The last one counts, as an
   * earlier one may have gone with a savepoint rolled back ({@link #nested}).
   */
  void witnessedBy(UUID eventId) {
    if (witness.get() != null) {
      witness.set(Optional.of(eventId));
    }
  }

  /** The witness of the calling thread's open transaction; null when it has none. */
  UUID currentWitness() {
    Optional<UUID> current = witness.get();
    return current == null ? null : current.orElse(null);
  }

  /**
   * Runs a transaction nested in the open one: when it rolls back, so does any witness it
   * noted, since its rows are gone.
   */
  <T> T nested(Supplier<T> transaction) {
    Optional<UUID> before = witness.get();
    try {
      return transaction.get();
    } catch (RuntimeException | Error e) {
      if (before != null) {
        witness.set(before);
      }
      throw e;
    }
  }

  /**
   * The last step of a transaction's work, on its connection: notes the transaction's id if it
   * wrote anything, and passes the work's {@code result} through.
   */
  <T> T beforeCommit(DSLContext dsl, T result) {
    if (!wrote.get()) {
      committing.set(new Committing(null, 0, null, null, result));
      return result;
    }
    UUID witnessed = currentWitness();
    committing.set(dsl.connectionResult(connection -> {
      try (PreparedStatement query = connection.prepareStatement(
              "select pg_current_xact_id_if_assigned()::text, pg_backend_pid(), "
                  + "pg_postmaster_start_time()");
          ResultSet row = query.executeQuery()) {
        row.next();
        return new Committing(row.getString(1), row.getInt(2),
            row.getObject(3, OffsetDateTime.class), witnessed, result);
      }
    }));
    return result;
  }

  private Outcome outcome(Committing pending, RuntimeException failure) {
    long deadline = System.nanoTime() + PATIENCE.toNanos();
    while (true) {
      try (Connection connection = connect()) {
        Optional<Outcome> outcome = decide(connection, pending, failure);
        if (outcome.isPresent()) {
          LOG.warn("transaction {} {}", pending.transactionId(),
              outcome.get() == Outcome.COMMITTED ? "committed before its connection broke"
                  : "did not commit");
          return outcome.get();
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

  /**
   * What became of {@code pending}, asked on {@code connection}; empty while it is still in
   * progress (its server process is ended meanwhile).
   */
  Optional<Outcome> decide(Connection connection, Committing pending, RuntimeException failure)
      throws SQLException {
    Optional<String> status = status(connection, pending.transactionId());
    if (!serverStarted(connection).isEqual(pending.serverStarted())) {
      // Restarted: the transaction runs nowhere any more, and its id may be another's now.
      if (pending.witness() != null) {
        boolean present = witnessed(connection, pending.witness());
        LOG.warn("transaction {}: the database restarted since; the row it wrote is {}",
            pending.transactionId(), present ? "there" : "not there");
        return Optional.of(present ? Outcome.COMMITTED : Outcome.NOT_COMMITTED);
      }
      if (status.isPresent() && status.get().equals("committed")) {
        LOG.error("transaction {}: its server restarted and the transaction left no row to "
            + "tell whether it committed; whether it committed is unknown",
            pending.transactionId());
        throw new TransactionOutcomeUnknownException(failure);
      }
      return Optional.of(Outcome.NOT_COMMITTED);
    }
    if (status.isEmpty() || status.get().equals("aborted")) {
      return Optional.of(Outcome.NOT_COMMITTED);
    }
    if (status.get().equals("committed")) {
      return Optional.of(Outcome.COMMITTED);
    }
    endAbandoned(connection, pending);
    return Optional.empty();
  }

  /** The status of a transaction id; empty when the server never handed it out. */
  private static Optional<String> status(Connection connection, String transactionId)
      throws SQLException {
    try (PreparedStatement query = connection.prepareStatement(
        "select pg_xact_status(?::xid8)")) {
      query.setString(1, transactionId);
      try (ResultSet row = query.executeQuery()) {
        row.next();
        return Optional.ofNullable(row.getString(1));
      }
    } catch (SQLException e) {
      if (NOT_YET_ASSIGNED.equals(e.getSQLState())) {
        return Optional.empty(); // "in the future": a crash took it, and nobody has it yet
      }
      throw e;
    }
  }

  private static OffsetDateTime serverStarted(Connection connection) throws SQLException {
    try (PreparedStatement query = connection.prepareStatement(
            "select pg_postmaster_start_time()");
        ResultSet row = query.executeQuery()) {
      row.next();
      return row.getObject(1, OffsetDateTime.class);
    }
  }

  private static boolean witnessed(Connection connection, UUID eventId) throws SQLException {
    try (PreparedStatement query = connection.prepareStatement(
        "select exists (select 1 from audit_log where event_id = ?)")) {
      query.setObject(1, eventId);
      try (ResultSet row = query.executeQuery()) {
        row.next();
        return row.getBoolean(1);
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
