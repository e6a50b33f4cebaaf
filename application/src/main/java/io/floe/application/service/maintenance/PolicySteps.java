package io.floe.application.service.maintenance;

import io.floe.application.model.MaintenancePolicy;
import io.floe.application.port.in.maintenance.MaintainTableUseCase;
import io.floe.application.model.MaintenanceJob.Step;
import java.time.Duration;
import java.util.Optional;
import java.util.Set;

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

  /**
   * The steps of {@code planned} that {@code policy} still turns on, as it sets them now: a job
   * runs what the policy says when it runs, not when it was planned.
   */
  static MaintainTableUseCase.Steps planned(Set<Step> planned, MaintenancePolicy policy) {
    MaintainTableUseCase.Steps on = of(policy, false);
    return new MaintainTableUseCase.Steps(
        planned.contains(Step.COMPACT) ? on.compact() : Optional.empty(),
        planned.contains(Step.EXPIRE_SNAPSHOTS) ? on.expire() : Optional.empty(),
        planned.contains(Step.REWRITE_MANIFESTS) ? on.rewriteManifests() : Optional.empty(),
        planned.contains(Step.REMOVE_ORPHANS) ? on.removeOrphans() : Optional.empty(), false);
  }

  private static <T> T orDefault(T value, T otherwise) {
    return value != null ? value : otherwise;
  }
}
