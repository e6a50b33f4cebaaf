package io.floe.application.service.maintenance;

import io.floe.application.model.MaintenancePolicy;
import io.floe.application.port.in.maintenance.MaintainTableUseCase;
import java.time.Duration;
import java.util.Optional;

/** The maintenance steps a policy turns on: each step whose fields some level sets. */
final class PolicySteps {
  private PolicySteps() {}

  static MaintainTableUseCase.Steps of(MaintenancePolicy policy, boolean dryRun) {
    Optional<MaintainTableUseCase.Compaction> compact =
        policy.compactionTargetFileSizeBytes() != null || policy.compactionMinInputFiles() != null
            ? Optional.of(new MaintainTableUseCase.Compaction(
                orDefault(policy.compactionTargetFileSizeBytes(),
                    MaintainTableUseCase.DEFAULT_TARGET_FILE_SIZE),
                orDefault(policy.compactionMinInputFiles(),
                    MaintainTableUseCase.DEFAULT_MIN_INPUT_FILES)))
            : Optional.empty();
    Optional<MaintainTableUseCase.Expiry> expire =
        policy.snapshotMaxAgeSeconds() != null || policy.minSnapshotsToKeep() != null
            ? Optional.of(new MaintainTableUseCase.Expiry(policy.snapshotMaxAgeSeconds() != null
                ? Duration.ofSeconds(policy.snapshotMaxAgeSeconds())
                : MaintenancePolicy.DEFAULT_SNAPSHOT_MAX_AGE,
                orDefault(policy.minSnapshotsToKeep(), 1)))
            : Optional.empty();
    Optional<MaintainTableUseCase.ManifestRewriting> manifests =
        Optional.ofNullable(policy.manifestRewriteThreshold())
            .map(threshold -> new MaintainTableUseCase.ManifestRewriting(threshold + 1));
    Optional<MaintainTableUseCase.OrphanRemoval> orphans =
        Optional.ofNullable(policy.orphanGraceSeconds())
            .map(seconds -> new MaintainTableUseCase.OrphanRemoval(Duration.ofSeconds(seconds)));
    return new MaintainTableUseCase.Steps(compact, expire, manifests, orphans, dryRun);
  }

  private static <T> T orDefault(T value, T otherwise) {
    return value != null ? value : otherwise;
  }
}
