package io.floe.bootstrap;

import io.floe.adapters.persistence.BucketCredentialSealing;
import io.floe.adapters.persistence.Database;
import io.floe.adapters.persistence.DatabaseSettings;
import io.floe.adapters.persistence.SecretCipher;
import io.floe.adapters.persistence.UnreadableSecretException;
import io.floe.adapters.persistence.embedded.EmbeddedPostgresServer;

/**
 * The catalog's database as a server or {@code floe secrets} opens it: the external PostgreSQL, or
 * the embedded one under the data directory, migrated, with its bucket credentials sealed.
 */
final class CatalogDatabase {
  private CatalogDatabase() {}

  /** Connects (starting the embedded PostgreSQL unless an external one is configured). */
  static Database open(ServerSettings settings, int poolSize, StartedServices started) {
    DatabaseSettings database = settings.database().orElseGet(() ->
        started.push(EmbeddedPostgresServer.start(settings.embeddedPostgresDir())).settings());
    return started.push(Database.open(database, poolSize));
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
