package io.floe.adapters.persistence.embedded;

import io.floe.adapters.persistence.SchemaMigrations;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.postgresql.ds.PGSimpleDataSource;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Moves a cluster an older PostgreSQL made (older Floe versions ran PostgreSQL 14) to the current
 * major on the first start of the new version, losing nothing. zonky's bundles carry no
 * {@code pg_upgrade} or {@code pg_dump}, so the copy is logical: both servers run side by side,
 * the new database gets the schema the old one had from Floe's own migrations, and
 * {@link LogicalCopy} moves every row. Newer migrations run on the new cluster afterwards, when
 * Floe opens its database.
 *
 * <p>The old cluster is left as it was (but for its password, see {@link ClusterAccess}) until
 * the new one is whole, and is kept afterwards. Each step can be interrupted:
 *
 * <ol>
 *   <li>the new cluster is built in {@code postgres.upgrading}; an unfinished one is thrown away
 *       and the copy starts over;
 *   <li>once the copy is verified and both servers have stopped cleanly, a marker file in the new
 *       cluster says it is whole;
 *   <li>the old cluster is renamed to {@code postgres-<major>.pre-upgrade}, then the new one to
 *       {@code postgres}; a start that finds a whole new cluster finishes these renames.
 * </ol>
 */
final class MajorVersionUpgrade {
  private static final Logger LOG = LoggerFactory.getLogger(MajorVersionUpgrade.class);
  /** Present in a new cluster once it holds every row of the old one. */
  static final String COMPLETE_MARKER = "floe-upgrade.complete";

  private final ClusterLayout layout;
  private final ClusterAccess access;
  private final OrphanPostmaster orphans;
  private final PostgresBinaries current;
  private final PostgresBinaries previous;

  MajorVersionUpgrade(ClusterLayout layout, ClusterAccess access, OrphanPostmaster orphans,
      PostgresBinaries current, PostgresBinaries previous) {
    this.layout = layout;
    this.access = access;
    this.orphans = orphans;
    this.current = current;
    this.previous = previous;
  }

  /**
   * Leaves the cluster on the current major: upgrades it if an older one made it, and finishes or
   * restarts an upgrade a crash interrupted. Nothing happens to a current or missing cluster.
   */
  void runIfNeeded() {
    PostgresCluster cluster = new PostgresCluster(layout.cluster());
    PostgresCluster target = new PostgresCluster(layout.upgradeTarget());
    if (!cluster.exists()) {
      if (isComplete(target)) {
        LOG.info("finishing an interrupted upgrade: the upgraded cluster {} becomes {}", target,
            cluster);
        Disk.rename(target.directory(), cluster.directory());
      }
      return;
    }
    int major = cluster.majorVersion();
    int currentMajor = current.majorVersion();
    if (major == currentMajor) {
      remindOfKeptClusters();
      return;
    }
    if (major > currentMajor) {
      throw new IllegalStateException(cluster + " was made by PostgreSQL " + major + ", newer "
          + "than this Floe's PostgreSQL " + currentMajor + ": run a Floe at least as new as the "
          + "one that made it");
    }
    if (isComplete(target)) {
      LOG.info("finishing an interrupted upgrade: the PostgreSQL {} copy of {} is whole",
          currentMajor, cluster);
      swap(cluster, target, major);
      return;
    }
    upgrade(cluster, target, major, currentMajor);
  }

  private void upgrade(PostgresCluster cluster, PostgresCluster target, int major,
      int currentMajor) {
    if (!previous.isAvailable() || previous.majorVersion() != major) {
      throw new IllegalStateException(cluster + " was made by PostgreSQL " + major + ", and this "
          + "Floe can upgrade it to PostgreSQL " + currentMajor + " only on Linux x86_64 (where "
          + "it carries PostgreSQL " + major + "'s programs): start it there once, or move the "
          + "directory away to start with an empty catalog");
    }
    Instant started = Instant.now();
    LOG.info("{} was made by PostgreSQL {}; upgrading it to PostgreSQL {}. The old cluster stays "
        + "as it is until the new one holds every row, and is kept afterwards", cluster, major,
        currentMajor);
    orphans.repair(target).forEach(repair -> LOG.warn("repaired after an unclean stop: {}",
        repair));
    if (Files.exists(target.directory())) {
      LOG.info("discarding the unfinished upgrade in {} and starting it over", target);
      Disk.deleteRecursively(target.directory());
    }
    if (access.secure(cluster, previous)) {
      LOG.info("{} now requires the password in {} (it trusted every local connection)", cluster,
          layout.passwordFile());
    }
    access.initialize(target, current);
    LogicalCopy.Report report;
    try (Postmaster old = Postmaster.start(cluster, previous, access.password());
        Postmaster fresh = Postmaster.start(target, current, access.password())) {
      report = copy(old, fresh, major);
    }
    Disk.writePrivately(target.directory().resolve(COMPLETE_MARKER), "upgraded from PostgreSQL "
        + major + " at " + Instant.now() + ": " + report.tables() + " tables, " + report.rows()
        + " rows, " + report.sequences() + " sequences\n");
    Path kept = swap(cluster, target, major);
    LOG.info("upgrade done in {} s: {} runs on PostgreSQL {}; the PostgreSQL {} cluster is kept "
        + "in {} (remove it once you no longer need it)",
        Duration.between(started, Instant.now()).toSeconds(), cluster, currentMajor, major, kept);
  }

  private LogicalCopy.Report copy(Postmaster old, Postmaster fresh, int major) {
    try (Connection from = old.connect("postgres"); Connection to = fresh.connect("postgres")) {
      refuseForeignDatabases(from, major);
      Optional<String> schemaVersion = SchemaMigrations.appliedVersion(dataSource(old));
      schemaVersion.ifPresent(version -> {
        LOG.info("upgrade: creating the schema at version {} (the old database's)", version);
        SchemaMigrations.migrateTo(dataSource(fresh), version);
      });
      LogicalCopy.Report report = LogicalCopy.copy(from, to);
      to.setAutoCommit(true);
      try (Statement statement = to.createStatement()) {
        statement.execute("ANALYZE"); // the planner's statistics are not copied
      }
      LOG.info("upgrade: copied {} tables ({} rows) and {} sequences; every table holds the same "
          + "rows as before (count and digest)", report.tables(), report.rows(),
          report.sequences());
      return report;
    } catch (SQLException e) {
      throw new IllegalStateException("the upgrade could not copy the catalog (nothing was "
          + "changed in " + layout.cluster() + "; the next start tries again): " + e.getMessage(),
          e);
    }
  }

  /** Floe uses the database {@code postgres} alone; it cannot vouch for copying any other. */
  private static void refuseForeignDatabases(Connection from, int major) throws SQLException {
    List<String> others = new ArrayList<>();
    try (Statement statement = from.createStatement(); ResultSet rows = statement.executeQuery(
        "SELECT datname FROM pg_database WHERE datname NOT IN ('postgres', 'template0', "
            + "'template1') ORDER BY 1")) {
      while (rows.next()) {
        others.add(rows.getString(1));
      }
    }
    if (!others.isEmpty()) {
      throw new IllegalStateException("the PostgreSQL " + major + " cluster holds databases Floe "
          + "did not make (" + String.join(", ", others) + "), which the upgrade would not "
          + "copy: move or drop them, then start Floe again");
    }
  }

  private Path swap(PostgresCluster cluster, PostgresCluster target, int major) {
    Path kept = layout.preUpgradeCopy(major);
    Disk.rename(cluster.directory(), kept);
    Disk.rename(target.directory(), cluster.directory());
    return kept;
  }

  private static boolean isComplete(PostgresCluster target) {
    return target.exists() && Files.exists(target.directory().resolve(COMPLETE_MARKER));
  }

  private void remindOfKeptClusters() {
    Path parent = layout.cluster().getParent();
    String glob = layout.cluster().getFileName() + "-*.pre-upgrade*";
    try (DirectoryStream<Path> kept = Files.newDirectoryStream(parent, glob)) {
      for (Path directory : kept) {
        LOG.info("{} holds the cluster as it was before an upgrade; remove it once you no longer "
            + "need it", directory);
      }
    } catch (IOException e) {
      throw new UncheckedIOException("cannot list " + parent, e);
    }
    if (Files.exists(layout.upgradeTarget())) {
      LOG.warn("{} is left from an upgrade and is not used; remove it", layout.upgradeTarget());
    }
  }

  private static PGSimpleDataSource dataSource(Postmaster postmaster) {
    PGSimpleDataSource dataSource = new PGSimpleDataSource();
    dataSource.setUrl(postmaster.jdbcUrl("postgres"));
    dataSource.setUser(ClusterAccess.USER);
    dataSource.setPassword(postmaster.password());
    return dataSource;
  }
}
