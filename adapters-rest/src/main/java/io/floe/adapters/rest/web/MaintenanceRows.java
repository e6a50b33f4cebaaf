package io.floe.adapters.rest.web;

import io.floe.adapters.rest.web.view.MaintenancePanel;
import io.floe.application.model.MaintenancePolicy;
import io.floe.application.model.MaintenancePolicyView;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.function.Function;

/**
 * A table's effective maintenance policy as rows of its page: the settings that apply, each
 * with the level it comes from, in the order the management API lists them. A setting no level
 * sets is left out: that step does not run.
 */
final class MaintenanceRows {
  private MaintenanceRows() {}

  static MaintenancePanel of(MaintenancePolicyView view) {
    MaintenancePolicy effective = view.effective();
    List<MaintenancePanel.Row> rows = new ArrayList<>();
    add(rows, view, "snapshot_max_age_seconds", "Expire snapshots older than",
        effective.snapshotMaxAgeSeconds(), MaintenanceRows::seconds);
    add(rows, view, "min_snapshots_to_keep", "Keep at least this many snapshots",
        effective.minSnapshotsToKeep(), String::valueOf);
    add(rows, view, "orphan_grace_seconds", "Remove unreferenced files older than",
        effective.orphanGraceSeconds(), MaintenanceRows::seconds);
    add(rows, view, "manifest_rewrite_threshold", "Rewrite manifests above this many",
        effective.manifestRewriteThreshold(), String::valueOf);
    add(rows, view, "compaction_target_file_size_bytes", "Compact data files to",
        effective.compactionTargetFileSizeBytes(), MaintenanceRows::bytes);
    add(rows, view, "compaction_min_input_files", "Compact when a partition has at least",
        effective.compactionMinInputFiles(), files -> files + " files");
    add(rows, view, "executor", "Run by", effective.executor(), String::valueOf);
    return new MaintenancePanel(rows, rows.isEmpty()
        ? Optional.of("No maintenance policy applies to this table: nothing is compacted, "
            + "expired or removed by Floe.")
        : Optional.empty());
  }

  /** A panel that says why the policy cannot be shown to this caller. */
  static MaintenancePanel unavailable(String reason) {
    return new MaintenancePanel(List.of(), Optional.of(reason));
  }

  private static <T> void add(List<MaintenancePanel.Row> rows, MaintenancePolicyView view,
      String field, String setting, T value, Function<T, String> text) {
    if (value != null) {
      rows.add(new MaintenancePanel.Row(setting, field, text.apply(value),
          view.sources().getOrDefault(field, "default")));
    }
  }

  private static String seconds(Long seconds) {
    Duration duration = Duration.ofSeconds(seconds);
    if (seconds == 0) {
      return "0 s";
    }
    if (seconds % 86_400 == 0) {
      return duration.toDays() + (duration.toDays() == 1 ? " day" : " days");
    }
    if (seconds % 3_600 == 0) {
      return duration.toHours() + " h";
    }
    if (seconds % 60 == 0) {
      return duration.toMinutes() + " min";
    }
    return seconds + " s";
  }

  private static String bytes(Long bytes) {
    long mib = 1024L * 1024;
    if (bytes % mib == 0) {
      return String.format(Locale.ROOT, "%,d MiB", bytes / mib);
    }
    return String.format(Locale.ROOT, "%,d bytes", bytes);
  }
}
