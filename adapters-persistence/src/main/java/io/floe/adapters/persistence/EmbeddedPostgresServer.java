package io.floe.adapters.persistence;

import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A real PostgreSQL server run from binaries shipped in a Maven artifact, with its data directory
 * under Floe's data directory so that it survives restarts. The default when no external database
 * is configured.
 */
public final class EmbeddedPostgresServer implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(EmbeddedPostgresServer.class);

  private final EmbeddedPostgres postgres;

  private EmbeddedPostgresServer(EmbeddedPostgres postgres) {
    this.postgres = postgres;
  }

  /** Starts PostgreSQL on a free loopback port with its data in {@code dataDirectory}. */
  public static EmbeddedPostgresServer start(Path dataDirectory) {
    try {
      Files.createDirectories(dataDirectory);
      EmbeddedPostgres postgres = EmbeddedPostgres.builder()
          .setDataDirectory(dataDirectory)
          .setCleanDataDirectory(false)
          .setServerConfig("listen_addresses", "127.0.0.1")
          .start();
      LOG.info("embedded PostgreSQL is running on port {} with data in {}", postgres.getPort(),
          dataDirectory);
      return new EmbeddedPostgresServer(postgres);
    } catch (IOException e) {
      throw new UncheckedIOException("could not start the embedded PostgreSQL in " + dataDirectory
          + ": " + e.getMessage(), e);
    }
  }

  public DatabaseSettings settings() {
    return new DatabaseSettings(postgres.getJdbcUrl("postgres", "postgres"), "postgres", "");
  }

  @Override
  public void close() {
    try {
      postgres.close();
      LOG.info("embedded PostgreSQL stopped");
    } catch (IOException e) {
      throw new UncheckedIOException("could not stop the embedded PostgreSQL", e);
    }
  }
}
