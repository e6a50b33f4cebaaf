package io.floe.adapters.persistence.cache;

import io.floe.adapters.persistence.jooq.AdvisoryLocks;
import java.sql.Array;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Whether this server has joined the servers that keep pointers in memory on its database, so
 * that {@link PointerCache} may serve them. Two advisory locks decide it (the argument is in
 * {@link PointerWrites}):
 * <ul>
 *   <li><b>Readers.</b> The listening connection of every server that keeps pointers holds it
 *   shared, for as long as that connection lives. A write to a table's row asks every holder
 *   but its own server to stop serving that table before it commits, and waits for each to say
 *   it has (or for its heartbeat to have lapsed).</li>
 *   <li><b>Writes.</b> Every write to a table's row holds it shared until its transaction ends,
 *   and reads the readers lock's holders only after taking it.</li>
 * </ul>
 * Joining: the listening connection takes the readers lock, then notes the transactions holding
 * the writes lock at that moment: those were fenced before this server was a reader, so they do
 * not ask it. It serves nothing until all of them have ended, then waits one heartbeat more (which
 * delivers their announcements), voids what it read meanwhile, and only then serves pointers.
 * Every write that took the writes lock after the readers lock was taken asks this server.
 */
final class ReplicaPresence {
  static final int READERS = AdvisoryLocks.key("pointer-readers");
  static final int WRITES = AdvisoryLocks.key("pointer-writes");
  private static final Logger LOG = LoggerFactory.getLogger(ReplicaPresence.class);

  /** The SQL condition on pg_locks naming Floe's lock {@code key} in the current database. */
  static String lockIs(int key) {
    return "locktype = 'advisory' and database = (select oid from pg_database"
        + " where datname = current_database()) and classid = " + AdvisoryLocks.FLOE
        + "::bigint::oid and objid = " + Integer.toUnsignedLong(key) + "::bigint::oid"
        + " and objsubid = 2";
  }

  /** Where this server stands on its current listening connection. */
  enum State { ABSENT, JOINING, JOINED_NEXT_HEARTBEAT, JOINED }

  private final Runnable voidKept;
  private volatile State state = State.ABSENT;
  /** The virtual transaction ids of writes under way when this server joined. */
  private Object[] writesBeforeJoining = new Object[0];

  /** {@code voidKept} runs right before this server starts serving pointers. */
  ReplicaPresence(Runnable voidKept) {
    this.voidKept = voidKept;
  }

  /** Whether this server may serve pointers it keeps (its announcements trusted or not). */
  boolean joined() {
    return state == State.JOINED;
  }

  /**
   * On the listening connection, right after it started listening: takes the readers lock, then
   * notes the writes under way.
   */
  void join(Connection listener) throws SQLException {
    AdvisoryLocks.execute(listener, "select pg_advisory_lock_shared(?, ?)", READERS);
    try (PreparedStatement statement = listener.prepareStatement(
        "select array(select virtualtransaction from pg_locks where " + lockIs(WRITES)
            + " and granted)");
        ResultSet result = statement.executeQuery()) {
      result.next();
      Array writes = result.getArray(1);
      writesBeforeJoining = (Object[]) writes.getArray();
    }
    state = State.JOINING;
  }

  /** On the listening connection, after each heartbeat and the announcements it delivered. */
  void heartbeat(Connection listener) throws SQLException {
    switch (state) {
      case JOINING -> {
        if (writesBeforeJoiningEnded(listener)) {
          // Their announcements were sent before their locks went: the next heartbeat delivers
          // them, and only then are pointers served.
          state = State.JOINED_NEXT_HEARTBEAT;
        }
      }
      case JOINED_NEXT_HEARTBEAT -> {
        voidKept.run();
        state = State.JOINED;
        LOG.info("tables' metadata pointers are kept in memory; every write to a table asks "
            + "this server to stop serving it before it commits");
      }
      default -> { }
    }
  }

  private boolean writesBeforeJoiningEnded(Connection listener) throws SQLException {
    if (writesBeforeJoining.length == 0) {
      return true;
    }
    try (PreparedStatement statement = listener.prepareStatement(
        "select count(*) from pg_locks where " + lockIs(WRITES)
            + " and virtualtransaction = any(?)")) {
      statement.setArray(1, listener.createArrayOf("text", writesBeforeJoining));
      try (ResultSet result = statement.executeQuery()) {
        result.next();
        if (result.getLong(1) == 0) {
          writesBeforeJoining = new Object[0];
          return true;
        }
        return false;
      }
    }
  }

  /** The listening connection is gone, and with it the readers lock. */
  void lost() {
    state = State.ABSENT;
  }
}
