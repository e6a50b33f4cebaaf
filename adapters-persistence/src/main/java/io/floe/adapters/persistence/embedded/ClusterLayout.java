package io.floe.adapters.persistence.embedded;

import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Where the embedded PostgreSQL keeps its things, all beside its data directory
 * ({@code <data-dir>/postgres} for {@code floe serve}):
 *
 * <ul>
 *   <li>{@code postgres/}: the cluster (PostgreSQL's data directory);
 *   <li>{@code postgres.password}: the generated password of its {@code postgres} role (mode 600);
 *   <li>{@code postgres.lock}: locked by the Floe process that runs the cluster;
 *   <li>{@code postgres.upgrading/}: the new cluster while an upgrade builds it;
 *   <li>{@code postgres-<major>.pre-upgrade/}: the old cluster, kept after an upgrade.
 * </ul>
 */
record ClusterLayout(Path cluster) {
  ClusterLayout {
    cluster = cluster.toAbsolutePath().normalize();
  }

  Path passwordFile() {
    return sibling(".password");
  }

  Path lockFile() {
    return sibling(".lock");
  }

  Path upgradeTarget() {
    return sibling(".upgrading");
  }

  /** A name no directory has yet, for the cluster of {@code major} once it has been upgraded. */
  Path preUpgradeCopy(int major) {
    Path candidate = sibling("-" + major + ".pre-upgrade");
    for (int n = 2; Files.exists(candidate); n++) {
      candidate = sibling("-" + major + ".pre-upgrade." + n);
    }
    return candidate;
  }

  private Path sibling(String suffix) {
    return cluster.resolveSibling(cluster.getFileName() + suffix);
  }
}
