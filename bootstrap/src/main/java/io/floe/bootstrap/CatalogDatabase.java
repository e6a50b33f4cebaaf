package io.floe.bootstrap;

import com.zaxxer.hikari.metrics.MetricsTrackerFactory;
import io.floe.adapters.persistence.DatabaseSettings;
import io.floe.adapters.persistence.embedded.EmbeddedPostgresServer;
import io.floe.adapters.persistence.jooq.BucketCredentialSealing;
import io.floe.adapters.persistence.jooq.Database;
import io.floe.adapters.persistence.jooq.SecretCipher;
import io.floe.adapters.persistence.jooq.UnreadableSecretException;
import java.util.Optional;

/**
 * The catalog's database as a server or {@code floe secrets} opens it: the external PostgreSQL, or
 * the embedded one under the data directory, migrated, with its bucket credentials sealed.
 */
final class CatalogDatabase {
  private CatalogDatabase() {}

  /** Connects (starting the embedded PostgreSQL unless an external one is configured). */
  static Database open(ServerSettings settings, int poolSize, StartedServices started) {
    return open(settings, poolSize, started, Optional.empty());
  }

  /** Like {@link #open(ServerSettings, int, StartedServices)}, reporting the pool's use. */
  static Database open(ServerSettings settings, int poolSize, StartedServices started,
      Optional<MetricsTrackerFactory> poolMetrics) {
    DatabaseSettings database = settings.database().orElseGet(() ->
        started.push(EmbeddedPostgresServer.start(settings.embeddedPostgresDir())).settings());
    return started.push(Database.open(database, poolSize, poolMetrics));
  }

  /**
   * Seals credentials still in plain text and those sealed with the previous key, and proves the
   * key opens all others; a server that could not read them must not start.
   */
  static BucketCredentialSealing.Outcome sealCredentials(Database database, SecretCipher cipher) {
    try {
      return new BucketCredentialSealing(database, cipher).run();
    } catch (UnreadableSecretException e) {
      throw SecretKeys.refusal(e, cipher);
    }
  }
}
