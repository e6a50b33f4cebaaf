package io.floe.adapters.persistence.embedded;

import io.floe.adapters.persistence.DatabaseSettings;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The catalog's PostgreSQL when no external database is configured: a real server, run from
 * binaries the jar carries, on a cluster kept under Floe's data directory. Starting it
 *
 * <ol>
 *   <li>claims the cluster for this process ({@link DataDirectoryLock});
 *   <li>stops what an earlier Floe that died left running on it, and removes a stale
 *       {@code postmaster.pid} ({@link OrphanPostmaster}), saying so in the log;
 *   <li>upgrades a cluster an older PostgreSQL made ({@link MajorVersionUpgrade});
 *   <li>makes a new cluster, or brings an old one under the password rules ({@link ClusterAccess});
 *   <li>starts the server, durable, on a free loopback port ({@link Postmaster}).
 * </ol>
 */
public final class EmbeddedPostgresServer implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(EmbeddedPostgresServer.class);

  private final DataDirectoryLock lock;
  private final Postmaster postmaster;

  private EmbeddedPostgresServer(DataDirectoryLock lock, Postmaster postmaster) {
    this.lock = lock;
    this.postmaster = postmaster;
  }

  /**
   * Starts PostgreSQL on the cluster in {@code clusterDirectory}, creating it if it does not
   * exist; the files that go with it are kept beside it (see {@link ClusterLayout}).
   */
  public static EmbeddedPostgresServer start(Path clusterDirectory) {
    Instant started = Instant.now();
    ClusterLayout layout = new ClusterLayout(clusterDirectory);
    createDirectories(layout.cluster().getParent());
    DataDirectoryLock lock = DataDirectoryLock.acquire(layout.lockFile());
    try {
      PostgresBinaries binaries = PostgresBinaries.CURRENT;
      int major = binaries.majorVersion(); // first, so that an unsupported platform says so
      PostgresCluster cluster = new PostgresCluster(layout.cluster());
      OrphanPostmaster orphans = new OrphanPostmaster(binaries);
      orphans.repair(cluster).forEach(repair -> LOG.warn("repaired after an unclean stop: {}",
          repair));
      ClusterAccess access = new ClusterAccess(layout.passwordFile());
      new MajorVersionUpgrade(layout, access, orphans, binaries, PostgresBinaries.PREVIOUS)
          .runIfNeeded();
      if (!cluster.exists()) {
        access.initialize(cluster, binaries);
        LOG.info("created a PostgreSQL {} cluster in {}", major, cluster);
      } else if (access.secure(cluster, binaries)) {
        LOG.info("{} now requires the password in {} (it trusted every local connection)",
            cluster, layout.passwordFile());
      }
      Postmaster postmaster = Postmaster.start(cluster, binaries, access.password());
      LOG.info("embedded PostgreSQL {} is running on 127.0.0.1:{} with data in {} (started in {} "
          + "ms)", major, postmaster.port(), cluster,
          Duration.between(started, Instant.now()).toMillis());
      return new EmbeddedPostgresServer(lock, postmaster);
    } catch (RuntimeException e) {
      lock.close();
      throw e;
    }
  }

  /** How Floe reaches it: the {@code postgres} database, as {@code postgres}, by password. */
  public DatabaseSettings settings() {
    return new DatabaseSettings(postmaster.jdbcUrl("postgres"), ClusterAccess.USER,
        postmaster.password());
  }

  @Override
  public void close() {
    try {
      postmaster.close();
      LOG.info("embedded PostgreSQL stopped");
    } finally {
      lock.close();
    }
  }

  private static void createDirectories(Path directory) {
    try {
      Files.createDirectories(directory);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot create " + directory, e);
    }
  }
}
