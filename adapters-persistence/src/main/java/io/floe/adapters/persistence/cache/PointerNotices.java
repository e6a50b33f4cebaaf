package io.floe.adapters.persistence.cache;

import io.floe.adapters.persistence.DatabaseSettings;
import java.sql.Array;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import java.util.Set;
import java.util.UUID;
import org.apache.iceberg.exceptions.ServiceUnavailableException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The notices of {@link PointerWrites} on the channel {@value #CHANNEL}, as the listening
 * connection hears them:
 * <ul>
 *   <li>{@code W <writer> <notice> <object>}: another server's transaction is about to change
 *   the object; it is held, and answered with</li>
 *   <li>{@code A <notice>...}: sent on this server's listening connection once the objects are
 *   held, so the writer knows which server answered by the sending process;</li>
 *   <li>{@code C <transaction> <object>}: a change committed (the trigger of migration V12), or
 *   {@code *} for every object: the transaction's holds are released, the object forgotten.</li>
 * </ul>
 * Notice ids are {@code <transaction>:<n>}, the transaction's n-th notice.
 */
final class PointerNotices {
  static final String CHANNEL = "floe_pointers";
  /** Another server's transaction held for longer than this is asked after. */
  private static final Duration ASK_AFTER = Duration.ofSeconds(1);
  /** Answers fit in one notification's payload (PostgreSQL allows under 8,000 bytes). */
  private static final int MAX_PAYLOAD = 7_000;
  private static final Logger LOG = LoggerFactory.getLogger(PointerNotices.class);

  private final PointerCache cache;
  private final PointerWrites writes;
  private final List<String> toAnswer = new ArrayList<>();

  PointerNotices(PointerCache cache, PointerWrites writes) {
    this.cache = cache;
    this.writes = writes;
  }

  /** A listening session and how long it has gone without beginning a statement. */
  record Quiet(int pid, long quietNanos) {}

  static String writing(int writer, String notice, UUID object) {
    return "W " + writer + " " + notice + " " + object;
  }

  /** One notice, heard by the listening connection of process {@code ownPid}. */
  void heard(int senderPid, String payload, int ownPid) {
    String[] parts = payload.split(" ");
    try {
      switch (parts[0]) {
        case "W" -> {
          if (Integer.parseInt(parts[1]) != ownPid) {
            String notice = parts[2];
            long transaction = Long.parseLong(notice.substring(0, notice.indexOf(':')));
            cache.hold(transaction, List.of(UUID.fromString(parts[3])), false);
            toAnswer.add(notice);
          }
        }
        case "A" -> {
          for (int i = 1; i < parts.length; i++) {
            writes.answered(senderPid, parts[i]);
          }
        }
        case "C" -> {
          cache.release(Long.parseLong(parts[1]));
          if (parts[2].equals("*")) {
            cache.voidKept();
          } else {
            cache.forget(UUID.fromString(parts[2]));
          }
        }
        default -> LOG.debug("unknown pointer notice ignored: {}", payload);
      }
    } catch (RuntimeException e) {
      // Not from Floe (someone else notifying on the channel): nothing of ours to do.
      LOG.debug("malformed pointer notice ignored: {}", payload);
    }
  }

  /** After a batch of notices: answers every {@code W} heard, in as few notifications as fit. */
  void answer(Connection listener) throws SQLException {
    if (toAnswer.isEmpty()) {
      return;
    }
    List<String> payloads = new ArrayList<>();
    StringBuilder payload = new StringBuilder("A");
    for (String notice : toAnswer) {
      if (payload.length() + notice.length() + 1 > MAX_PAYLOAD) {
        payloads.add(payload.toString());
        payload = new StringBuilder("A");
      }
      payload.append(' ').append(notice);
    }
    payloads.add(payload.toString());
    toAnswer.clear();
    try (PreparedStatement statement = listener.prepareStatement(
        "select pg_notify('" + CHANNEL + "', p) from unnest(?) p")) {
      statement.setArray(1, listener.createArrayOf("text", payloads.toArray()));
      statement.execute();
    }
  }

  /**
   * After each heartbeat: releases what other servers' transactions held if PostgreSQL says they
   * are no longer in progress (one that rolled back, or changed nothing, announces nothing).
   */
  void heartbeat(Connection listener) throws SQLException {
    Set<Long> old = cache.othersHoldingSince(System.nanoTime() - ASK_AFTER.toNanos());
    if (old.isEmpty()) {
      return;
    }
    try (PreparedStatement statement = listener.prepareStatement(
        "select array(select t from unnest(?::bigint[]) t"
            + " where txid_status(t) is distinct from 'in progress')")) {
      statement.setArray(1, listener.createArrayOf("bigint", old.toArray()));
      try (ResultSet result = statement.executeQuery()) {
        result.next();
        Array ended = result.getArray(1);
        for (Object transaction : (Object[]) ended.getArray()) {
          cache.release(((Number) transaction).longValue());
        }
      }
    }
  }

  /** Forgets notices to answer that the lost connection can no longer send. */
  void lost() {
    toAnswer.clear();
  }

  /**
   * Sends {@code W} notices on a connection of its own: committed without waiting for a flush
   * (they need no durability), and apart from the listening connection, which is busy listening.
   */
  static final class Sender implements AutoCloseable {
    static final String APPLICATION = "floe-notices";
    private static final int NETWORK_TIMEOUT_MS = 2_000;
    private final DatabaseSettings settings;
    private Connection connection;

    Sender(DatabaseSettings settings) {
      this.settings = settings;
    }

    /**
     * Sends {@code payload}, committed when this returns.
     *
     * @throws ServiceUnavailableException when PostgreSQL cannot be reached (nothing was written)
     */
    synchronized void send(String payload) {
      try {
        if (connection == null) {
          connection = connect();
        }
        try (PreparedStatement statement = connection.prepareStatement(
            "select pg_notify('" + CHANNEL + "', ?)")) {
          statement.setString(1, payload);
          statement.execute();
        }
      } catch (SQLException e) {
        closeConnection();
        throw new ServiceUnavailableException(e, "The catalog cannot take changes right now: "
            + "its connection to PostgreSQL for notices failed; try again shortly");
      }
    }

    /**
     * How long each of {@code pids}' sessions has gone without beginning a statement, by
     * PostgreSQL's clock; sessions that are gone are left out. Empty when PostgreSQL cannot say.
     */
    synchronized List<Quiet> quiet(Set<Integer> pids) {
      List<Quiet> quiet = new ArrayList<>();
      try {
        if (connection == null) {
          connection = connect();
        }
        try (PreparedStatement statement = connection.prepareStatement("select pid,"
            + " (extract(epoch from clock_timestamp() - query_start) * 1e9)::bigint"
            + " from pg_stat_activity where pid = any(?) and query_start is not null")) {
          statement.setArray(1, connection.createArrayOf("integer", pids.toArray()));
          try (ResultSet rows = statement.executeQuery()) {
            while (rows.next()) {
              quiet.add(new Quiet(rows.getInt(1), rows.getLong(2)));
            }
          }
        }
      } catch (SQLException e) {
        LOG.debug("could not read how long sessions were quiet: {}", e.getMessage());
        closeConnection();
      }
      return quiet;
    }

    /** Ends the session of {@code pid}; whether PostgreSQL did (a role may not be allowed to). */
    synchronized boolean end(int pid) {
      try {
        if (connection == null) {
          connection = connect();
        }
        try (PreparedStatement statement = connection.prepareStatement(
            "select pg_terminate_backend(?)")) {
          statement.setInt(1, pid);
          try (ResultSet ended = statement.executeQuery()) {
            return ended.next() && ended.getBoolean(1);
          }
        }
      } catch (SQLException e) {
        LOG.warn("a Floe server's listening session (PostgreSQL process {}) does not answer and "
            + "could not be ended: {}", pid, e.getMessage());
        return false;
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
      properties.setProperty("ApplicationName", APPLICATION);
      Connection opened = DriverManager.getConnection(settings.jdbcUrl(), properties);
      try (Statement statement = opened.createStatement()) {
        opened.setNetworkTimeout(Runnable::run, NETWORK_TIMEOUT_MS);
        statement.execute("set synchronous_commit = off");
      } catch (SQLException e) {
        opened.close();
        throw e;
      }
      return opened;
    }

    private void closeConnection() {
      if (connection != null) {
        try {
          connection.close();
        } catch (SQLException e) {
          // closing a broken connection: nothing left to do
        }
        connection = null;
      }
    }

    @Override
    public synchronized void close() {
      closeConnection();
    }
  }
}
