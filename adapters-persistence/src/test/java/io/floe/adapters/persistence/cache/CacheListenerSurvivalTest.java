package io.floe.adapters.persistence.cache;

import static org.assertj.core.api.Assertions.assertThat;

import io.floe.adapters.persistence.DatabaseSettings;
import io.floe.adapters.persistence.TestDatabases;
import io.floe.adapters.persistence.jooq.Database;
import io.floe.application.health.Workers;
import io.floe.application.model.WorkerOutage;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import java.time.Clock;
import java.time.Duration;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * The cache listener's thread outlives a failure its own loop does not catch (an {@code Error},
 * as an {@code OutOfMemoryError} was): it is down, the caches are not trusted meanwhile, and it
 * listens again after its back-off. Before, the thread died, the caches were never trusted again
 * and every write waited for a listener that would never come back.
 */
class CacheListenerSurvivalTest {

  @Test
  void aListenerKilledByAnErrorIsDownThenListensAgain() throws Exception {
    DatabaseSettings plain = TestDatabases.freshDatabase(TestDatabases.embeddedServer());
    DatabaseSettings settings = new DatabaseSettings(plain.jdbcUrl()
        + (plain.jdbcUrl().contains("?") ? "&" : "?") + "socketFactory="
        + FailingListenerSockets.class.getName(), plain.user(), plain.password());
    Semaphore pausing = new Semaphore(0);
    Semaphore resume = new Semaphore(0);
    Workers workers = new Workers(Clock.systemUTC(), Duration.ofSeconds(1),
        Duration.ofSeconds(30), duration -> {
          pausing.release();
          resume.acquire();
        });
    try (Database database = Database.open(settings, 2)) {
      CacheInvalidations invalidations = CacheInvalidations.start(database, workers);
      try {
        CachedServer.await(invalidations::trusted, "the listener listens");

        FailingListenerSockets.failListenerConnects(1);
        endListeningSession(plain);
        assertThat(pausing.tryAcquire(30, TimeUnit.SECONDS)).as("the listener failed").isTrue();
        assertThat(workers.down()).extracting(WorkerOutage::worker)
            .containsExactly(CacheInvalidations.LISTENER);
        assertThat(invalidations.trusted()).isFalse();

        resume.release();
        CachedServer.await(invalidations::trusted, "the listener listens again");
        assertThat(workers.down()).isEmpty();
      } finally {
        resume.release(10);
        invalidations.close();
      }
    }
  }

  /** Ends the listener's session, as a restart of PostgreSQL would: it connects again. */
  private static void endListeningSession(DatabaseSettings settings) throws Exception {
    try (Connection connection = DriverManager.getConnection(settings.jdbcUrl(), settings.user(),
        settings.password()); Statement statement = connection.createStatement()) {
      statement.execute("select pg_terminate_backend(pid) from pg_stat_activity where "
          + "application_name = '" + CacheInvalidations.APPLICATION + "' and datname = "
          + "current_database()");
    }
  }
}
