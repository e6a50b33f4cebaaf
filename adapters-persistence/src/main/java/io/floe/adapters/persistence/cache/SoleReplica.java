package io.floe.adapters.persistence.cache;

import io.floe.adapters.persistence.jooq.AdvisoryLocks;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import org.apache.iceberg.exceptions.ServiceUnavailableException;
import org.jooq.DSLContext;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Whether this server is the only one on its database. Only then may it keep tables' metadata
 * pointers in memory ({@link PointerCache}): every change to them is its own, and it forgets a
 * pointer before the commit that moves it is answered. With two or more servers, every load reads
 * the pointer from PostgreSQL, so that a commit through one is loaded through the other at once.
 *
 * <p>It is decided with two advisory locks, both held by the listening connection of
 * {@link CacheInvalidations}, whose heartbeat proves that connection alive:
 * <ul>
 *   <li><b>Presence.</b> Every server holds it shared while it runs. The sole server holds it
 *   exclusively as well, which it can take only while no other server holds it at all; a server
 *   that starts meanwhile cannot take its shared hold, so it announces itself on the channel
 *   {@value #CHANNEL} and waits, and the sole server stops using its pointers, then lets go of
 *   its exclusive hold.</li>
 *   <li><b>Writes.</b> Every write to a table or view's row holds it shared until its
 *   transaction ends ({@link #fenceWrite}). A server that has taken presence exclusively waits
 *   {@link CacheInvalidations#TRUST}, then takes this lock exclusively once, which waits out
 *   every write still under way on any server, before it uses its pointers.</li>
 * </ul>
 * A server writes only after its fence, and only while its listening connection is proved alive
 * and has held presence for {@link CacheInvalidations#TRUST} (or holds it exclusively). So a
 * server whose connection died stops writing within that time, and one that claims the database
 * after that connection's death waits that long before its last check: no write of another
 * server lands while a sole server uses its pointers, whichever connection breaks when.
 */
public final class SoleReplica {
  static final String CHANNEL = "floe_replicas";
  /** How long a write waits for this server to be allowed to write before it is refused. */
  static final Duration WRITE_WAIT = Duration.ofSeconds(5);
  /** After another server asked to share the database, how long this one leaves it shared. */
  static final Duration QUIET = Duration.ofSeconds(5);
  /** How long a starting server asks the sole one to share before it ends that one's session. */
  static final Duration PATIENCE = Duration.ofSeconds(5);
  /** How long the last step of a claim waits for writes under way before trying later. */
  private static final String BARRIER_TIMEOUT = "500ms";
  private static final int PRESENCE = AdvisoryLocks.key("replica-presence");
  private static final int WRITES = AdvisoryLocks.key("catalog-object-writes");
  private static final Logger LOG = LoggerFactory.getLogger(SoleReplica.class);

  /** Where this server stands, and since when (System.nanoTime()). */
  enum State { ABSENT, PRESENT, CLAIMING, SOLE }

  /** {@code presentSince}: when presence was taken shared; {@code since}: when the state began. */
  private record Standing(State state, long presentSince, long since) {}

  private final BooleanSupplier listenerAlive;
  private final Runnable pointersVoid;
  private volatile Standing standing =
      new Standing(State.ABSENT, System.nanoTime(), System.nanoTime());
  private long noClaimBefore = System.nanoTime();

  /**
   * {@code listenerAlive}: whether the listening connection was proved alive less than
   * {@link CacheInvalidations#TRUST} ago. {@code pointersVoid} runs whenever this server starts or
   * stops being the sole one: what it kept of pointers before is void.
   */
  SoleReplica(BooleanSupplier listenerAlive, Runnable pointersVoid) {
    this.listenerAlive = listenerAlive;
    this.pointersVoid = pointersVoid;
  }

  /** Whether this server may use pointers it keeps in memory now. */
  public boolean isSole() {
    return standing.state() == State.SOLE && listenerAlive.getAsBoolean();
  }

  /**
   * Called inside a transaction before it writes a table or view's row: holds the writes lock
   * shared until the transaction ends, then waits (at most {@link #WRITE_WAIT}) until this server
   * may write.
   *
   * @throws ServiceUnavailableException when it may not within that time (its listening
   *     connection is down)
   */
  public void fenceWrite(DSLContext transaction) {
    transaction.execute("select pg_advisory_xact_lock_shared(?, ?)", AdvisoryLocks.FLOE, WRITES);
    long deadline = System.nanoTime() + WRITE_WAIT.toNanos();
    while (!mayWrite()) {
      if (System.nanoTime() - deadline > 0) {
        throw new ServiceUnavailableException("The catalog cannot take changes right now: its "
            + "connection to PostgreSQL for announcements is down; try again shortly");
      }
      sleep(10);
    }
  }

  private boolean mayWrite() {
    Standing now = standing;
    boolean standsLongEnough = switch (now.state()) {
      case ABSENT -> false;
      case PRESENT -> System.nanoTime() - now.presentSince()
          >= CacheInvalidations.TRUST.toNanos();
      case CLAIMING, SOLE -> true;
    };
    return standsLongEnough && listenerAlive.getAsBoolean();
  }

  /**
   * On the listening connection, right after it started listening: takes presence shared,
   * asking a sole server to share the database first if there is one.
   */
  void join(Connection listener, BooleanSupplier stopping) throws SQLException {
    boolean present =
        AdvisoryLocks.execute(listener, "select pg_try_advisory_lock_shared(?, ?)", PRESENCE);
    if (!present) {
      LOG.info("another Floe server is alone on this database: asking it to share");
      execute(listener, "set lock_timeout = '1s'");
      long patientUntil = System.nanoTime() + PATIENCE.toNanos();
      while (!present && !stopping.getAsBoolean()) {
        if (System.nanoTime() - patientUntil > 0) {
          endUnansweringSoleServer(listener);
          patientUntil = System.nanoTime() + PATIENCE.toNanos();
        }
        execute(listener, "select pg_notify('" + CHANNEL + "', 'join')");
        try {
          present =
              AdvisoryLocks.execute(listener, "select pg_advisory_lock_shared(?, ?)", PRESENCE);
        } catch (SQLException e) {
          if (!"55P03".equals(e.getSQLState())) { // lock_not_available: ask again
            throw e;
          }
        }
      }
      execute(listener, "set lock_timeout = 0");
    }
    if (present) {
      become(State.PRESENT);
    }
  }

  /**
   * A sole server answers within a heartbeat; one that has not for {@link #PATIENCE} is gone (its
   * machine died and PostgreSQL has not noticed yet) or stalled. Ending its listening session
   * frees presence, and is safe either way: a stalled server stops using its pointers once its
   * listener has not been proved alive for {@link CacheInvalidations#TRUST}, and this one writes
   * only after holding presence that long. Ending another session of the same role needs no
   * privilege; where it is refused, this server keeps asking.
   */
  private static void endUnansweringSoleServer(Connection listener) throws SQLException {
    try (PreparedStatement statement = listener.prepareStatement(
        "select pid, pg_terminate_backend(pid) from pg_locks where locktype = 'advisory'"
            + " and classid = ? and objid = ? and objsubid = 2 and mode = 'ExclusiveLock'"
            + " and granted and pid <> pg_backend_pid()")) {
      statement.setInt(1, AdvisoryLocks.FLOE);
      statement.setInt(2, PRESENCE);
      try (ResultSet ended = statement.executeQuery()) {
        while (ended.next()) {
          LOG.warn("the Floe server alone on this database did not answer for {} s: ended its "
              + "listening session (PostgreSQL process {})", PATIENCE.toSeconds(), ended.getInt(1));
        }
      }
    } catch (SQLException e) {
      if (!"42501".equals(e.getSQLState())) { // insufficient_privilege: keep asking
        throw e;
      }
      LOG.warn("the Floe server alone on this database does not answer, and its session may not "
          + "be ended by this role: {}", e.getMessage());
    }
  }

  /** On the listening connection, after each heartbeat: claims the database when alone. */
  void heartbeat(Connection listener) throws SQLException {
    Standing now = standing;
    if (now.state() == State.PRESENT && System.nanoTime() - noClaimBefore >= 0) {
      if (AdvisoryLocks.execute(listener, "select pg_try_advisory_lock(?, ?)", PRESENCE)) {
        become(State.CLAIMING);
      }
    } else if (now.state() == State.CLAIMING
        && System.nanoTime() - now.since() >= CacheInvalidations.TRUST.toNanos()) {
      if (writesWaitedOut(listener)) {
        become(State.SOLE);
        LOG.info("the only Floe server on this database: tables' metadata pointers are kept in "
            + "memory until another server starts");
      } else {
        yieldPresence(listener);
      }
    }
  }

  /** On the listening connection, when {@code pid} announced on {@link #CHANNEL}. */
  void otherServerJoining(Connection listener, int pid, int ownPid) throws SQLException {
    if (pid == ownPid) {
      return;
    }
    State was = standing.state();
    if (was == State.CLAIMING || was == State.SOLE) {
      yieldPresence(listener);
      LOG.info("another Floe server started on this database: metadata pointers are read from "
          + "PostgreSQL on every load");
    }
    noClaimBefore = System.nanoTime() + QUIET.toNanos();
  }

  /** The listening connection is gone, and with it every lock it held. */
  void lost() {
    become(State.ABSENT);
  }

  /** Stops using pointers, then lets go of presence's exclusive hold (the shared one stays). */
  private void yieldPresence(Connection listener) throws SQLException {
    become(State.PRESENT);
    noClaimBefore = System.nanoTime() + QUIET.toNanos();
    AdvisoryLocks.execute(listener, "select pg_advisory_unlock(?, ?)", PRESENCE);
  }

  /** Takes the writes lock exclusively once: every write under way anywhere has then ended. */
  private boolean writesWaitedOut(Connection listener) throws SQLException {
    execute(listener, "set lock_timeout = '" + BARRIER_TIMEOUT + "'");
    try {
      AdvisoryLocks.execute(listener, "select pg_advisory_lock(?, ?)", WRITES);
      AdvisoryLocks.execute(listener, "select pg_advisory_unlock(?, ?)", WRITES);
      return true;
    } catch (SQLException e) {
      if ("55P03".equals(e.getSQLState())) {
        return false; // a long write: claim again later
      }
      throw e;
    } finally {
      execute(listener, "set lock_timeout = 0");
    }
  }

  /**
   * Synchronized because the listener's thread and the one closing the listener both call it.
   * What was kept is voided before pointers may be used and after they may no longer be: a load
   * that reads the generation after the void sees the standing that came with it ({@link
   * PointerCache#find} reads the generation before it asks {@link #isSole}).
   */
  private synchronized void become(State state) {
    Standing before = standing;
    long now = System.nanoTime();
    // Presence is taken when joining and kept, shared, until the connection is lost.
    long presentSince = before.state() == State.ABSENT ? now : before.presentSince();
    if (state == State.SOLE) {
      pointersVoid.run();
    }
    standing = new Standing(state, presentSince, now);
    if (before.state() == State.SOLE) {
      pointersVoid.run();
    }
  }

  private static void execute(Connection connection, String sql) throws SQLException {
    try (PreparedStatement statement = connection.prepareStatement(sql)) {
      statement.execute();
    }
  }

  private static void sleep(long millis) {
    try {
      TimeUnit.MILLISECONDS.sleep(millis);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new ServiceUnavailableException("Interrupted while waiting to write");
    }
  }
}
