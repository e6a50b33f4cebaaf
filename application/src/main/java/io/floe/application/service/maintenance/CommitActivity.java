package io.floe.application.service.maintenance;

import io.floe.application.model.AuditAction;
import io.floe.application.model.ChangeEvent;
import io.floe.application.model.MaintenanceTable;
import io.floe.application.security.MaintenanceSchedulerIdentity;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import org.apache.iceberg.SnapshotSummary;

/**
 * Turns a page of an org's change feed into what it says about each table: the commits clients
 * made, the snapshots they added, the commits that added data files, and the totals of the
 * latest snapshot summary. Only what the commit recorded is read; no table is opened. The
 * scheduler's own commits update the totals but count as no activity, so that maintenance never
 * plans more maintenance.
 */
final class CommitActivity {
  private CommitActivity() {}

  static List<MaintenanceTable.Activity> of(List<ChangeEvent> events) {
    Map<String, MaintenanceTable.Activity> tables = new LinkedHashMap<>();
    for (ChangeEvent event : events) {
      if (!event.entry().action().equals(AuditAction.TABLE_COMMIT.wireName())) {
        continue;
      }
      Optional<String> namespace = event.namespace();
      String target = event.entry().targetName();
      if (namespace.isEmpty() || !target.startsWith(namespace.get() + ".")) {
        continue; // recorded before commits named their namespace: nothing to place it by
      }
      String name = target.substring(namespace.get().length() + 1);
      MaintenanceTable.Activity seen = of(event, namespace.get(), name);
      tables.merge(seen.key(), seen, CommitActivity::then);
    }
    return List.copyOf(tables.values());
  }

  private static MaintenanceTable.Activity of(ChangeEvent event, String namespace, String name) {
    boolean client = !MaintenanceSchedulerIdentity.madeIt(event.entry().principalId());
    int snapshots = 0;
    int dataCommits = 0;
    OptionalLong files = OptionalLong.empty();
    OptionalLong size = OptionalLong.empty();
    if (event.entry().details().get("added_snapshots") instanceof List<?> added) {
      for (Object snapshot : added) {
        if (!(snapshot instanceof Map<?, ?> described)
            || !(described.get("summary") instanceof Map<?, ?> summary)) {
          continue;
        }
        snapshots++;
        if (number(summary, SnapshotSummary.ADDED_FILES_PROP).orElse(0) > 0) {
          dataCommits = 1;
        }
        OptionalLong total = number(summary, SnapshotSummary.TOTAL_DATA_FILES_PROP);
        if (total.isPresent()) {
          files = total;
          size = number(summary, SnapshotSummary.TOTAL_FILE_SIZE_PROP);
        }
      }
    }
    return client
        ? new MaintenanceTable.Activity(namespace, name, 1, snapshots, dataCommits, files, size)
        : new MaintenanceTable.Activity(namespace, name, 0, 0, 0, files, size);
  }

  /** {@code earlier}, then {@code later}: counts add up, the later totals win. */
  private static MaintenanceTable.Activity then(MaintenanceTable.Activity earlier,
      MaintenanceTable.Activity later) {
    return new MaintenanceTable.Activity(later.namespace(), later.name(),
        earlier.commits() + later.commits(), earlier.addedSnapshots() + later.addedSnapshots(),
        earlier.dataCommits() + later.dataCommits(),
        later.totalDataFiles().isPresent() ? later.totalDataFiles() : earlier.totalDataFiles(),
        later.totalDataFiles().isPresent() ? later.totalFilesSize() : earlier.totalFilesSize());
  }

  private static OptionalLong number(Map<?, ?> summary, String property) {
    Object value = summary.get(property);
    if (value == null) {
      return OptionalLong.empty();
    }
    try {
      long parsed = Long.parseLong(value.toString());
      return parsed < 0 ? OptionalLong.empty() : OptionalLong.of(parsed);
    } catch (NumberFormatException e) {
      return OptionalLong.empty();
    }
  }
}
