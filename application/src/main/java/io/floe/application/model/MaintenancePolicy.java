package io.floe.application.model;

import io.floe.domain.DurationBounds;
import java.time.Duration;
import org.apache.iceberg.exceptions.BadRequestException;

/**
 * The maintenance settings one level (an org, a namespace, a table) sets; a null field is not set
 * there and comes from the next level up. Each step is off until some level sets one of its
 * fields: retention (snapshots older than {@code snapshotMaxAgeSeconds} expire, the last
 * {@code minSnapshotsToKeep} are kept), orphan removal after {@code orphanGraceSeconds},
 * manifest rewrite when the current snapshot has more than {@code manifestRewriteThreshold} data
 * manifests, compaction to {@code compactionTargetFileSizeBytes} of partitions with at least
 * {@code compactionMinInputFiles} small files.
 */
public record MaintenancePolicy(Long snapshotMaxAgeSeconds, Integer minSnapshotsToKeep,
    Long orphanGraceSeconds, Integer manifestRewriteThreshold, Long compactionTargetFileSizeBytes,
    Integer compactionMinInputFiles) {
  /** Iceberg's own default maximum snapshot age ({@code history.expire.max-snapshot-age-ms}). */
  public static final Duration DEFAULT_SNAPSHOT_MAX_AGE = Duration.ofDays(5);
  public static final MaintenancePolicy NONE =
      new MaintenancePolicy(null, null, null, null, null, null);

  public MaintenancePolicy {
    if (snapshotMaxAgeSeconds != null) {
      DurationBounds.ofSeconds(snapshotMaxAgeSeconds, "snapshot_max_age_seconds");
    }
    if (orphanGraceSeconds != null) {
      DurationBounds.ofSeconds(orphanGraceSeconds, "orphan_grace_seconds");
    }
    if (minSnapshotsToKeep != null
        && (minSnapshotsToKeep < 1 || minSnapshotsToKeep > MaintenanceLimits.MAX_RETAIN_LAST)) {
      throw new BadRequestException("min_snapshots_to_keep must be from 1 to %d",
          MaintenanceLimits.MAX_RETAIN_LAST);
    }
    if (manifestRewriteThreshold != null && (manifestRewriteThreshold < 1
        || manifestRewriteThreshold > MaintenanceLimits.MAX_MANIFEST_THRESHOLD)) {
      throw new BadRequestException("manifest_rewrite_threshold must be from 1 to %d",
          MaintenanceLimits.MAX_MANIFEST_THRESHOLD);
    }
    if (compactionTargetFileSizeBytes != null
        && (compactionTargetFileSizeBytes < MaintenanceLimits.MIN_TARGET_FILE_SIZE
        || compactionTargetFileSizeBytes > MaintenanceLimits.MAX_TARGET_FILE_SIZE)) {
      throw new BadRequestException("compaction_target_file_size_bytes must be from %d to %d",
          MaintenanceLimits.MIN_TARGET_FILE_SIZE, MaintenanceLimits.MAX_TARGET_FILE_SIZE);
    }
    if (compactionMinInputFiles != null
        && (compactionMinInputFiles < MaintenanceLimits.MIN_INPUT_FILES
        || compactionMinInputFiles > MaintenanceLimits.MAX_MIN_INPUT_FILES)) {
      throw new BadRequestException("compaction_min_input_files must be from %d to %d",
          MaintenanceLimits.MIN_INPUT_FILES, MaintenanceLimits.MAX_MIN_INPUT_FILES);
    }
  }

  /** Whether this level sets nothing. */
  public boolean isEmpty() {
    return equals(NONE);
  }

  /** This level's fields, each taken from {@code parent} where this level does not set it. */
  public MaintenancePolicy over(MaintenancePolicy parent) {
    return new MaintenancePolicy(
        first(snapshotMaxAgeSeconds, parent.snapshotMaxAgeSeconds),
        first(minSnapshotsToKeep, parent.minSnapshotsToKeep),
        first(orphanGraceSeconds, parent.orphanGraceSeconds),
        first(manifestRewriteThreshold, parent.manifestRewriteThreshold),
        first(compactionTargetFileSizeBytes, parent.compactionTargetFileSizeBytes),
        first(compactionMinInputFiles, parent.compactionMinInputFiles));
  }

  private static <T> T first(T own, T inherited) {
    return own != null ? own : inherited;
  }
}
