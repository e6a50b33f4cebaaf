package io.floe.adapters.persistence.jooq;

import static io.floe.adapters.persistence.jooq.schema.Tables.MAINTENANCE_POLICIES;

import io.floe.application.model.MaintenancePolicy;
import io.floe.application.port.out.MaintenancePolicyStore;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import org.jooq.DSLContext;

/** Maintenance policies in {@code maintenance_policies}, one row per object they are set on. */
public final class JooqMaintenancePolicyStore implements MaintenancePolicyStore {
  private final DSLContext dsl;

  public JooqMaintenancePolicyStore(Database database) {
    this.dsl = database.dsl();
  }

  @Override
  public Optional<MaintenancePolicy> find(UUID targetId) {
    return dsl.selectFrom(MAINTENANCE_POLICIES)
        .where(MAINTENANCE_POLICIES.TARGET_ID.eq(targetId))
        .fetchOptional(row -> new MaintenancePolicy(row.getSnapshotMaxAgeSeconds(),
            row.getMinSnapshotsToKeep(), row.getOrphanGraceSeconds(),
            row.getManifestRewriteThreshold(), row.getCompactionTargetFileSizeBytes(),
            row.getCompactionMinInputFiles(), row.getExecutor()));
  }

  @Override
  public void put(UUID orgId, UUID targetId, Scope scope, MaintenancePolicy policy, Instant at) {
    dsl.insertInto(MAINTENANCE_POLICIES)
        .set(MAINTENANCE_POLICIES.TARGET_ID, targetId)
        .set(MAINTENANCE_POLICIES.ORG_ID, orgId)
        .set(MAINTENANCE_POLICIES.SCOPE, scope.name())
        .set(MAINTENANCE_POLICIES.SNAPSHOT_MAX_AGE_SECONDS, policy.snapshotMaxAgeSeconds())
        .set(MAINTENANCE_POLICIES.MIN_SNAPSHOTS_TO_KEEP, policy.minSnapshotsToKeep())
        .set(MAINTENANCE_POLICIES.ORPHAN_GRACE_SECONDS, policy.orphanGraceSeconds())
        .set(MAINTENANCE_POLICIES.MANIFEST_REWRITE_THRESHOLD, policy.manifestRewriteThreshold())
        .set(MAINTENANCE_POLICIES.COMPACTION_TARGET_FILE_SIZE_BYTES,
            policy.compactionTargetFileSizeBytes())
        .set(MAINTENANCE_POLICIES.COMPACTION_MIN_INPUT_FILES, policy.compactionMinInputFiles())
        .set(MAINTENANCE_POLICIES.EXECUTOR, policy.executor())
        .set(MAINTENANCE_POLICIES.UPDATED_AT, Times.of(at))
        .onConflict(MAINTENANCE_POLICIES.TARGET_ID).doUpdate()
        .set(MAINTENANCE_POLICIES.SNAPSHOT_MAX_AGE_SECONDS, policy.snapshotMaxAgeSeconds())
        .set(MAINTENANCE_POLICIES.MIN_SNAPSHOTS_TO_KEEP, policy.minSnapshotsToKeep())
        .set(MAINTENANCE_POLICIES.ORPHAN_GRACE_SECONDS, policy.orphanGraceSeconds())
        .set(MAINTENANCE_POLICIES.MANIFEST_REWRITE_THRESHOLD, policy.manifestRewriteThreshold())
        .set(MAINTENANCE_POLICIES.COMPACTION_TARGET_FILE_SIZE_BYTES,
            policy.compactionTargetFileSizeBytes())
        .set(MAINTENANCE_POLICIES.COMPACTION_MIN_INPUT_FILES, policy.compactionMinInputFiles())
        .set(MAINTENANCE_POLICIES.EXECUTOR, policy.executor())
        .set(MAINTENANCE_POLICIES.UPDATED_AT, Times.of(at))
        .execute();
  }

  @Override
  public boolean delete(UUID targetId) {
    return dsl.deleteFrom(MAINTENANCE_POLICIES)
        .where(MAINTENANCE_POLICIES.TARGET_ID.eq(targetId)).execute() > 0;
  }

  @Override
  public List<UUID> orgsWithPolicies() {
    return dsl.selectDistinct(MAINTENANCE_POLICIES.ORG_ID).from(MAINTENANCE_POLICIES)
        .fetch(MAINTENANCE_POLICIES.ORG_ID);
  }
}
