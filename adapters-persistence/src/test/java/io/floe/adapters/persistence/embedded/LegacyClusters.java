package io.floe.adapters.persistence.embedded;

import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Path;
import java.util.Locale;

/**
 * Clusters made the way Floe made them before it ran PostgreSQL itself: zonky's launcher, with the
 * PostgreSQL 14 the jar still carries for upgrades, {@code initdb -A trust}, and its settings.
 */
final class LegacyClusters {
  private LegacyClusters() {}

  /** Whether this platform has the previous major's binaries (Linux x86_64 only). */
  static boolean available() {
    return PostgresBinaries.PREVIOUS.isAvailable();
  }

  /** Starts PostgreSQL 14 on {@code directory} as the old {@code EmbeddedPostgresServer} did. */
  static EmbeddedPostgres start(Path directory) throws IOException {
    return EmbeddedPostgres.builder()
        .setPgBinaryResolver(LegacyClusters::previousBundle)
        .setDataDirectory(directory)
        .setCleanDataDirectory(false)
        .setRegisterShutdownHook(false)
        .setServerConfig("listen_addresses", "127.0.0.1")
        .start();
  }

  private static InputStream previousBundle(String system, String hardware) {
    return LegacyClusters.class.getClassLoader().getResourceAsStream("floe/postgres-previous/"
        + "postgres-" + system.toLowerCase(Locale.ROOT) + "-" + hardware + ".txz");
  }
}
