package io.floe.application.service.maintenance;

import io.floe.application.iceberg.ForeignTableFileException;
import io.floe.application.model.TableMaintenance;
import io.floe.application.port.in.maintenance.MaintainTableUseCase.Expiry;
import java.time.Clock;
import java.time.Instant;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentSkipListSet;
import java.util.stream.Collectors;
import org.apache.iceberg.ExpireSnapshots;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.Table;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Expires snapshots with iceberg-core's own {@link ExpireSnapshots}: those older than the age
 * given, keeping at least the last N of each branch, and never one a branch or tag references.
 * The files only expired snapshots referenced are deleted by iceberg-core after the commit,
 * through the table's confined FileIO: a file outside the table's location is refused there and
 * not deleted, and the run reports it ({@code refusedFiles}) rather than let iceberg-core's
 * cleanup swallow the refusal.
 */
final class SnapshotExpiry {
  private static final Logger LOG = LoggerFactory.getLogger(SnapshotExpiry.class);

  private final Clock clock;

  SnapshotExpiry(Clock clock) {
    this.clock = clock;
  }

  TableMaintenance.Expiry run(Table table, Expiry settings, boolean dryRun) {
    Instant olderThan = clock.instant().minus(settings.olderThan());
    Set<Long> before = ids(table.snapshots());
    // iceberg-core deletes from several threads.
    Set<String> refused = new ConcurrentSkipListSet<>();
    ExpireSnapshots expire = table.expireSnapshots()
        .expireOlderThan(olderThan.toEpochMilli())
        .retainLast(settings.retainLast())
        .deleteWith(location -> delete(table, location, refused));
    // apply() answers the snapshots the expiry would remove.
    List<Long> expired = ids(expire.apply()).stream().sorted().toList();
    if (expired.isEmpty()) {
      return new TableMaintenance.Expiry("nothing-to-do", olderThan, settings.retainLast(),
          List.of(), before.size(), List.of());
    }
    if (dryRun) {
      return new TableMaintenance.Expiry("dry-run", olderThan, settings.retainLast(), expired,
          before.size() - expired.size(), List.of());
    }
    expire.commit();
    table.refresh();
    Set<Long> remaining = ids(table.snapshots());
    return new TableMaintenance.Expiry("done", olderThan, settings.retainLast(),
        before.stream().filter(id -> !remaining.contains(id)).sorted().toList(),
        remaining.size(), List.copyOf(refused));
  }

  private static void delete(Table table, String location, Set<String> refused) {
    try {
      table.io().deleteFile(location);
    } catch (ForeignTableFileException outside) {
      LOG.warn("not deleting {} of expired snapshots of {}: it is outside the table", location,
          table.name());
      refused.add(location);
    }
  }

  private static Set<Long> ids(Iterable<Snapshot> snapshots) {
    return java.util.stream.StreamSupport.stream(snapshots.spliterator(), false)
        .map(Snapshot::snapshotId).collect(Collectors.toSet());
  }
}
