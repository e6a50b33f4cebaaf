package io.floe.adapters.persistence.cache;

import io.floe.adapters.persistence.jooq.CatalogObjectWrites;
import io.floe.adapters.persistence.DatabaseSettings;
import io.floe.adapters.persistence.jooq.Database;
import io.floe.application.health.Worker;
import io.floe.application.health.Workers;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Clock;
import java.time.Duration;
import java.util.Collections;
import java.util.List;
import java.util.Properties;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import org.postgresql.PGConnection;
import org.postgresql.PGNotification;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Keeps this server's caches true to PostgreSQL when several servers share it. Every change to a
 * cached table is announced on the channel {@value #CHANNEL} by a trigger (the table's name, when
 * the change commits); one connection of this server listens and makes the caches reading that
 * table forget what they hold. This server's own writes are forgotten before the request that
 * made them is answered, without waiting for the announcement.
 *
 * <p>The listening connection sends a heartbeat every {@link #HEARTBEAT}. PostgreSQL delivers
 * every announcement committed before a heartbeat before that heartbeat's answer, so once a
 * heartbeat that began at time t is answered, the caches know of every change committed before t.
 * Caches are used only while the last answered heartbeat began less than {@link #TRUST} ago; when
 * the connection breaks or stalls they are bypassed (every read goes to PostgreSQL) and emptied,
 * and they are used again only after the listener is back and has emptied them once more, since
 * announcements sent meanwhile are lost. So a change made on any server takes effect on every
 * other within {@link #TRUST}, whatever happens to the listener.
 *
 * <p>Tables' metadata pointers are kept in memory too ({@link #pointers}), on any number of
 * servers: the listening connection joins the servers that keep them ({@link ReplicaPresence})
 * and hears, on the channel {@value PointerNotices#CHANNEL}, which objects other servers are
 * about to change and have changed ({@link PointerNotices}, {@link PointerWrites}).
 */
public final class CacheInvalidations implements AutoCloseable {
  static final String CHANNEL = "floe_cache";
  /** The application name of the listening connection. */
  public static final String APPLICATION = "floe-listener";
  /** The name of the listening thread, as readiness names it when it is down. */
  public static final String LISTENER = "floe-cache-listener";
  /** How long the caches may go without proof that no announcement is pending. */
  public static final Duration TRUST = Duration.ofSeconds(1);
  static final Duration HEARTBEAT = Duration.ofMillis(200);
  private static final int NETWORK_TIMEOUT_MS = 2_000;
  private static final Duration MAX_RETRY_DELAY = Duration.ofSeconds(5);
  private static final Logger LOG = LoggerFactory.getLogger(CacheInvalidations.class);

  private final DatabaseSettings settings;
  private final List<InvalidatedCache<?, ?>> caches = new CopyOnWriteArrayList<>();
  private Worker listener;
  private volatile boolean closed;
  /** System.nanoTime() until which the caches may be used. */
  private volatile long trustedUntil = System.nanoTime();

  /** The tables the calling thread's open transaction has written. */
  private final Supplier<Set<String>> ownUncommittedWrites;
  private final ReplicaPresence presence;
  private final PointerCache pointers;
  private final PointerNotices.Sender noticeSender;
  private final PointerWrites pointerWrites;
  private final PointerNotices pointerNotices;
  /** The backend process id of the listening connection; 0 while there is none. */
  private volatile int listenerPid;

  private CacheInvalidations(Database database) {
    this.settings = database.settings();
    this.ownUncommittedWrites = database::tablesWrittenByOpenTransaction;
    this.pointers = new PointerCache(database, this::pointersServed);
    this.presence = new ReplicaPresence(pointers::voidKept);
    this.noticeSender = new PointerNotices.Sender(settings);
    this.pointerWrites = new PointerWrites(database, pointers, noticeSender,
        () -> listenerPid, TRUST);
    this.pointerNotices = new PointerNotices(pointers, pointerWrites);
  }

  /**
   * Starts listening on {@code database}'s server; this server's committed writes to it invalidate
   * the caches at once.
   */
  public static CacheInvalidations start(Database database) {
    return start(database, new Workers(Clock.systemUTC()));
  }

  /**
   * Starts listening on {@code database}'s server, on a thread kept alive among {@code workers}:
   * whatever kills its loop, it starts again, and until it does the server reports it down.
   */
  public static CacheInvalidations start(Database database, Workers workers) {
    CacheInvalidations invalidations = new CacheInvalidations(database);
    database.onCommittedWrites(invalidations::changed);
    invalidations.listener = workers.start(LISTENER, invalidations::listen,
        invalidations::listenerFailed);
    return invalidations;
  }

  /**
   * The listener's loop ended with an error its own retries do not catch: what losing the
   * connection does, done here, since the loop's own handling never ran.
   */
  private void listenerFailed() {
    connectionLost();
  }

  /** A new cache of rows of {@code tables}, forgotten whenever any of them changes. */
  public <K, V> InvalidatedCache<K, V> newCache(String name, long maximumSize,
      Set<String> tables) {
    // Not within a transaction that wrote one of the cache's tables: it must read what it wrote,
    // which nobody else may see (or cache) before it commits.
    InvalidatedCache<K, V> cache = new InvalidatedCache<>(name, maximumSize, tables,
        () -> trusted() && readsNothingItWrote(tables));
    caches.add(cache);
    return cache;
  }

  /** Tables and views with their metadata pointers, kept in memory. */
  public PointerCache pointers() {
    return pointers;
  }

  /**
   * What every change to a table or view's row must tell first, inside its transaction
   * ({@code JooqCatalogObjectStore}).
   */
  public CatalogObjectWrites pointerWrites() {
    return pointerWrites;
  }

  /**
   * The PostgreSQL process of the listening connection (as pg_stat_activity shows it, with the
   * application name {@value #APPLICATION}); 0 while there is none.
   */
  public int listeningProcess() {
    return listenerPid;
  }

  /** Whether loads are answered with pointers kept in memory now. */
  public boolean pointersServed() {
    return presence.joined() && trusted();
  }

  /** Every cache made here, for metrics. */
  public List<InvalidatedCache<?, ?>> caches() {
    return List.copyOf(caches);
  }

  /** Whether the caches may be used now. */
  public boolean trusted() {
    return System.nanoTime() - trustedUntil < 0;
  }

  /** Makes every cache reading one of {@code tables} forget what it holds. */
  void changed(Set<String> tables) {
    for (InvalidatedCache<?, ?> cache : caches) {
      if (tables.contains(Database.UNKNOWN_TABLE)
          || tables.stream().anyMatch(cache.tables()::contains)) {
        cache.invalidateAll();
      }
    }
  }

  private boolean readsNothingItWrote(Set<String> tables) {
    Set<String> written = ownUncommittedWrites.get();
    return written.isEmpty() || !written.contains(Database.UNKNOWN_TABLE)
        && Collections.disjoint(written, tables);
  }

  private void invalidateAll() {
    caches.forEach(InvalidatedCache::invalidateAll);
  }

  private void listen() {
    long retryDelay = HEARTBEAT.toMillis();
    while (!closed) {
      try (Connection connection = DriverManager.getConnection(settings.jdbcUrl(),
          listenerProperties());
          Statement statement = connection.createStatement()) {
        connection.setNetworkTimeout(Runnable::run, NETWORK_TIMEOUT_MS);
        PGConnection postgres = connection.unwrap(PGConnection.class);
        // Answers to writers' notices need no durability: they are not waited on for a flush.
        statement.execute("set synchronous_commit = off");
        statement.execute("LISTEN " + CHANNEL);
        statement.execute("LISTEN " + PointerNotices.CHANNEL);
        // Whatever was announced while nobody listened is lost: start from nothing.
        invalidateAll();
        pointers.dropOthersHolds();
        listenerPid = postgres.getBackendPID();
        presence.join(connection);
        LOG.debug("listening for cache invalidations");
        retryDelay = HEARTBEAT.toMillis();
        while (!closed) {
          long heartbeat = System.nanoTime();
          statement.execute("SELECT 1");
          deliver(connection, postgres.getNotifications());
          trustedUntil = heartbeat + TRUST.toNanos();
          presence.heartbeat(connection);
          pointerNotices.heartbeat(connection);
          deliver(connection, postgres.getNotifications((int) HEARTBEAT.toMillis()));
        }
      } catch (SQLException | RuntimeException e) {
        connectionLost();
        if (!closed) {
          LOG.warn("cache invalidations unavailable, caches bypassed until they are back: {}",
              e.toString());
          sleep(retryDelay);
          retryDelay = Math.min(retryDelay * 2, MAX_RETRY_DELAY.toMillis());
        }
      }
    }
  }

  /** Who the listening connection is, as pg_stat_activity shows it: {@value #APPLICATION}. */
  private Properties listenerProperties() {
    Properties properties = new Properties();
    if (settings.user() != null) {
      properties.setProperty("user", settings.user());
    }
    if (settings.password() != null) {
      properties.setProperty("password", settings.password());
    }
    properties.setProperty("ApplicationName", APPLICATION);
    return properties;
  }

  /** Caches are bypassed and emptied, pointers no longer served, what was heard is void. */
  private void connectionLost() {
    trustedUntil = System.nanoTime();
    listenerPid = 0;
    presence.lost();
    pointerNotices.lost();
    pointers.dropOthersHolds();
    invalidateAll();
  }

  private void deliver(Connection connection, PGNotification[] notifications)
      throws SQLException {
    if (notifications == null) {
      return;
    }
    int ownPid = connection.unwrap(PGConnection.class).getBackendPID();
    for (PGNotification notification : notifications) {
      if (notification.getName().equals(PointerNotices.CHANNEL)) {
        pointerNotices.heard(notification.getPID(), notification.getParameter(), ownPid);
      } else {
        changed(Set.of(notification.getParameter()));
      }
    }
    pointerNotices.answer(connection);
  }

  private static void sleep(long millis) {
    try {
      TimeUnit.MILLISECONDS.sleep(millis);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  @Override
  public void close() {
    closed = true;
    trustedUntil = System.nanoTime();
    presence.lost();
    listener.close(Duration.ofMillis(NETWORK_TIMEOUT_MS + HEARTBEAT.toMillis()));
    noticeSender.close();
  }
}
