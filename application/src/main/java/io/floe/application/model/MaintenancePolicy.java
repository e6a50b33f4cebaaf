package io.floe.application.model;

import io.floe.application.port.in.maintenance.MaintainTableUseCase;
import io.floe.domain.DurationBounds;
import java.time.Duration;
import java.util.Optional;
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
        && (minSnapshotsToKeep < 1 || minSnapshotsToKeep > MaintainTableUseCase.MAX_RETAIN_LAST)) {
      throw new BadRequestException("min_snapshots_to_keep must be from 1 to %d",
          MaintainTableUseCase.MAX_RETAIN_LAST);
    }
    if (manifestRewriteThreshold != null
        && (manifestRewriteThreshold < 1 || manifestRewriteThreshold > 100_000)) {
      throw new BadRequestException("manifest_rewrite_threshold must be from 1 to 100000");
    }
    if (compactionTargetFileSizeBytes != null || compactionMinInputFiles != null) {
      // The same bounds as a compaction asked for by hand (the fields are not assigned yet).
      compaction(compactionTargetFileSizeBytes, compactionMinInputFiles);
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

  /** The steps this policy turns on. */
  public MaintainTableUseCase.Steps steps(boolean dryRun) {
    Optional<MaintainTableUseCase.Compaction> compact =
        compactionTargetFileSizeBytes != null || compactionMinInputFiles != null
            ? Optional.of(compaction(compactionTargetFileSizeBytes, compactionMinInputFiles))
            : Optional.empty();
    Optional<MaintainTableUseCase.Expiry> expire =
        snapshotMaxAgeSeconds != null || minSnapshotsToKeep != null
            ? Optional.of(new MaintainTableUseCase.Expiry(snapshotMaxAgeSeconds != null
                ? Duration.ofSeconds(snapshotMaxAgeSeconds) : DEFAULT_SNAPSHOT_MAX_AGE,
                minSnapshotsToKeep != null ? minSnapshotsToKeep : 1))
            : Optional.empty();
    Optional<MaintainTableUseCase.ManifestRewriting> manifests =
        Optional.ofNullable(manifestRewriteThreshold)
            .map(threshold -> new MaintainTableUseCase.ManifestRewriting(threshold + 1));
    Optional<MaintainTableUseCase.OrphanRemoval> orphans = Optional.ofNullable(orphanGraceSeconds)
        .map(seconds -> new MaintainTableUseCase.OrphanRemoval(Duration.ofSeconds(seconds)));
    return new MaintainTableUseCase.Steps(compact, expire, manifests, orphans, dryRun);
  }

  private static MaintainTableUseCase.Compaction compaction(Long targetFileSizeBytes,
      Integer minInputFiles) {
    return new MaintainTableUseCase.Compaction(
        targetFileSizeBytes != null ? targetFileSizeBytes
            : MaintainTableUseCase.DEFAULT_TARGET_FILE_SIZE,
        minInputFiles != null ? minInputFiles : MaintainTableUseCase.DEFAULT_MIN_INPUT_FILES);
  }

  private static <T> T first(T own, T inherited) {
    return own != null ? own : inherited;
  }
}
