package io.floe.application.service.maintenance;

import io.floe.application.model.MaintenanceJob.Step;
import io.floe.application.model.MaintenancePolicy;
import io.floe.application.model.MaintenanceTable;
import io.floe.application.port.in.maintenance.MaintainTableUseCase;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;

/**
 * Which steps a table needs, from what its commits reported and the policy that applies: the
 * scheduler's one rule of when to plan a job. A step the policy leaves off is never needed.
 * <ul>
 *   <li>compaction, when the table holds at least the minimum number of input files and its
 *   files average less than the target size;
 *   <li>snapshot expiry, when the table holds (by the count of snapshots added since expiry last
 *   ran) more snapshots than the policy keeps;
 *   <li>manifest rewrite, when more commits added data (each one a manifest) than the threshold;
 *   <li>orphan removal, when clients committed since it last ran and a grace period has passed.
 * </ul>
 */
final class MaintenanceNeeds {
  /** The steps a table needs and, in words, why. */
  record Plan(Set<Step> steps, String reason) {
    boolean isEmpty() {
      return steps.isEmpty();
    }
  }

  private MaintenanceNeeds() {}

  static Plan of(MaintenancePolicy policy, MaintenanceTable table, Instant now) {
    Set<Step> steps = EnumSet.noneOf(Step.class);
    List<String> why = new ArrayList<>();
    MaintainTableUseCase.Steps on = PolicySteps.of(policy, false);
    on.compact().ifPresent(compaction -> {
      if (table.totalDataFiles().isPresent() && table.totalFilesSize().isPresent()) {
        long files = table.totalDataFiles().getAsLong();
        long average = files == 0 ? 0 : table.totalFilesSize().getAsLong() / files;
        if (files >= compaction.minInputFiles()
            && average < compaction.targetFileSizeBytes()) {
          steps.add(Step.COMPACT);
          why.add(files + " data files of " + average + " bytes on average (target "
              + compaction.targetFileSizeBytes() + ")");
        }
      }
    });
    on.expire().ifPresent(expiry -> {
      if (table.snapshots() > expiry.retainLast()) {
        steps.add(Step.EXPIRE_SNAPSHOTS);
        why.add("about " + table.snapshots() + " snapshots (keeps at least "
            + expiry.retainLast() + ")");
      }
    });
    on.rewriteManifests().ifPresent(rewrite -> {
      // The policy's threshold is "more than N"; the step's own, "at least N + 1".
      if (table.dataManifests() >= rewrite.minManifests()) {
        steps.add(Step.REWRITE_MANIFESTS);
        why.add("about " + table.dataManifests() + " data manifests (threshold "
            + (rewrite.minManifests() - 1) + ")");
      }
    });
    on.removeOrphans().ifPresent(orphans -> {
      Duration grace = orphans.grace();
      boolean graceOver = table.orphansRemovedAt()
          .map(last -> !last.plus(grace).isAfter(now)).orElse(true);
      if (table.commitsSinceOrphanRemoval() > 0 && graceOver) {
        steps.add(Step.REMOVE_ORPHANS);
        why.add(table.commitsSinceOrphanRemoval() + " commits since orphans were last removed");
      }
    });
    return new Plan(steps, String.join("; ", why));
  }
}
