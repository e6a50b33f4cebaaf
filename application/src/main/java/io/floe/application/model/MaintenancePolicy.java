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
 * {@code compactionMinInputFiles} small files. {@code executor} says what runs the steps:
 * {@value #IN_PROCESS} (the server itself, the default) or {@value #SPARK} (a Spark job the
 * server submits, running Iceberg's own procedures against the catalog).
 */
public record MaintenancePolicy(Long snapshotMaxAgeSeconds, Integer minSnapshotsToKeep,
    Long orphanGraceSeconds, Integer manifestRewriteThreshold, Long compactionTargetFileSizeBytes,
    Integer compactionMinInputFiles, String executor) {
  /** The server runs the steps itself. */
  public static final String IN_PROCESS = "in-process";
  /** A Spark job the server submits runs them. */
  public static final String SPARK = "spark";
  public static final java.util.List<String> EXECUTORS = java.util.List.of(IN_PROCESS, SPARK);
  /** Iceberg's own default maximum snapshot age ({@code history.expire.max-snapshot-age-ms}). */
  public static final Duration DEFAULT_SNAPSHOT_MAX_AGE = Duration.ofDays(5);
  public static final MaintenancePolicy NONE =
      new MaintenancePolicy(null, null, null, null, null, null, null);

  /** A level that leaves the executor to the levels above. */
  public MaintenancePolicy(Long snapshotMaxAgeSeconds, Integer minSnapshotsToKeep,
      Long orphanGraceSeconds, Integer manifestRewriteThreshold,
      Long compactionTargetFileSizeBytes, Integer compactionMinInputFiles) {
    this(snapshotMaxAgeSeconds, minSnapshotsToKeep, orphanGraceSeconds, manifestRewriteThreshold,
        compactionTargetFileSizeBytes, compactionMinInputFiles, null);
  }

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
    if (executor != null && !EXECUTORS.contains(executor)) {
      throw new BadRequestException("executor must be one of %s", String.join(", ", EXECUTORS));
    }
  }

  /** What runs this policy's steps: its executor, else {@value #IN_PROCESS}. */
  public String executorOrDefault() {
    return executor != null ? executor : IN_PROCESS;
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
        first(compactionMinInputFiles, parent.compactionMinInputFiles),
        first(executor, parent.executor));
  }

  private static <T> T first(T own, T inherited) {
    return own != null ? own : inherited;
  }
}
