package io.floe.application.model;

import java.time.Instant;
import java.util.Locale;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.UUID;

/**
 * What the maintenance scheduler knows of one table from the commits the change feed reported:
 * the latest snapshot summary's totals, and estimates counted since each step last ran (the
 * snapshots the table holds, its data manifests, the commits since orphans were last removed).
 * The scheduler plans from these alone; it never opens a table to decide whether it needs work.
 */
public record MaintenanceTable(UUID orgId, String namespace, String name,
    OptionalLong totalDataFiles, OptionalLong totalFilesSize, int snapshots, int dataManifests,
    int commitsSinceOrphanRemoval, Optional<Instant> orphansRemovedAt) {
  public MaintenanceTable {
    Objects.requireNonNull(orgId, "orgId");
    Objects.requireNonNull(namespace, "namespace");
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(totalDataFiles, "totalDataFiles");
    Objects.requireNonNull(totalFilesSize, "totalFilesSize");
    Objects.requireNonNull(orphansRemovedAt, "orphansRemovedAt");
  }

  public String key() {
    return key(namespace, name);
  }

  /** A table's key: {@code <namespace>.<name>} as the catalog compares names, ignoring case. */
  public static String key(String namespace, String name) {
    return (namespace + "." + name).toLowerCase(Locale.ROOT);
  }

  /**
   * What one batch of the feed reported about a table: {@code commits} commits by clients (the
   * scheduler's own commits count for the totals only), the snapshots they added, the commits that
   * added data files (each adds a manifest), and the latest summary's totals, when it had them.
   */
  public record Activity(String namespace, String name, int commits, int addedSnapshots,
      int dataCommits, OptionalLong totalDataFiles, OptionalLong totalFilesSize) {
    public Activity {
      Objects.requireNonNull(namespace, "namespace");
      Objects.requireNonNull(name, "name");
      Objects.requireNonNull(totalDataFiles, "totalDataFiles");
      Objects.requireNonNull(totalFilesSize, "totalFilesSize");
    }

    public String key() {
      return MaintenanceTable.key(namespace, name);
    }
  }

  /**
   * What a finished job learnt about the table: the snapshots left after expiry, the manifests
   * after a rewrite, whether orphans were removed.
   */
  public record Observed(Optional<Integer> snapshots, Optional<Integer> dataManifests,
      boolean orphansRemoved) {
    public static final Observed NOTHING = new Observed(Optional.empty(), Optional.empty(), false);
  }
}
