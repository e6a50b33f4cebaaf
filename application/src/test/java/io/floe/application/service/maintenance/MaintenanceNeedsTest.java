package io.floe.application.service.maintenance;

import static org.assertj.core.api.Assertions.assertThat;

import io.floe.application.model.AuditEntry;
import io.floe.application.model.ChangeEvent;
import io.floe.application.model.FeedPosition;
import io.floe.application.model.MaintenanceJob.Step;
import io.floe.application.model.MaintenancePolicy;
import io.floe.application.model.MaintenanceTable;
import io.floe.application.security.MaintenanceSchedulerIdentity;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * What the scheduler reads from commits ({@link CommitActivity}) and when it plans which step
 * ({@link MaintenanceNeeds}): only from the snapshot summaries commits recorded, and only for
 * steps the policy turns on.
 */
class MaintenanceNeedsTest {
  private static final Instant NOW = Instant.parse("2026-01-01T00:00:00Z");
  private static final UUID ORG = UUID.randomUUID();
  private static final MaintenancePolicy EVERYTHING =
      new MaintenancePolicy(0L, 5, 86_400L, 10, 8L << 20, 4);

  private static MaintenanceTable table(long files, long bytes, int snapshots, int manifests,
      int commitsSinceOrphans, Optional<Instant> orphansRemoved) {
    return new MaintenanceTable(ORG, "sales", "orders", OptionalLong.of(files),
        OptionalLong.of(bytes), snapshots, manifests, commitsSinceOrphans, orphansRemoved);
  }

  @Test
  void aPolicyThatTurnsNothingOnPlansNothing() {
    assertThat(MaintenanceNeeds.of(MaintenancePolicy.NONE,
        table(500, 500, 500, 500, 500, Optional.empty()), NOW).isEmpty()).isTrue();
  }

  @Test
  void manySmallFilesManySnapshotsAndManifestsPlanEveryStep() {
    MaintenanceNeeds.Plan plan = MaintenanceNeeds.of(EVERYTHING,
        table(12, 12 * 1000, 12, 11, 12, Optional.empty()), NOW);
    assertThat(plan.steps()).containsExactlyInAnyOrder(Step.COMPACT, Step.EXPIRE_SNAPSHOTS,
        Step.REWRITE_MANIFESTS, Step.REMOVE_ORPHANS);
    assertThat(plan.reason()).contains("12 data files of 1000 bytes on average",
        "about 12 snapshots (keeps at least 5)", "about 11 data manifests (threshold 10)");
  }

  @Test
  void aHealthyTableNeedsNothing() {
    MaintenanceNeeds.Plan plan = MaintenanceNeeds.of(EVERYTHING,
        table(3, 3 * 1000, 5, 10, 0, Optional.of(NOW.minusSeconds(60))), NOW);
    assertThat(plan.isEmpty()).as("%s", plan.reason()).isTrue();
    assertThat(MaintenanceNeeds.of(EVERYTHING,
        table(40, 40L * (16 << 20), 1, 1, 0, Optional.empty()), NOW).steps())
        .as("files of twice the target size").doesNotContain(Step.COMPACT);
  }

  @Test
  void orphansAreRemovedAtMostOnceAGracePeriod() {
    assertThat(MaintenanceNeeds.of(EVERYTHING,
        table(1, 1, 1, 1, 3, Optional.of(NOW.minus(Duration.ofHours(23)))), NOW).steps())
        .doesNotContain(Step.REMOVE_ORPHANS);
    assertThat(MaintenanceNeeds.of(EVERYTHING,
        table(1, 1, 1, 1, 3, Optional.of(NOW.minus(Duration.ofHours(24)))), NOW).steps())
        .contains(Step.REMOVE_ORPHANS);
  }

  private static ChangeEvent commit(long sequence, UUID principal, String target,
      List<Map<String, Object>> added) {
    return new ChangeEvent(new FeedPosition(1, sequence, NOW), UUID.randomUUID(),
        new AuditEntry(sequence, NOW, principal, "p", "table.commit", "table", target,
            Map.of("namespace", "sales", "added_snapshots", added), "r"), 1);
  }

  private static Map<String, Object> snapshot(String added, String total, String size) {
    return Map.of("summary", Map.of("added-data-files", added, "total-data-files", total,
        "total-files-size", size));
  }

  @Test
  void commitsAddUpPerTableAndTheLatestTotalsWin() {
    UUID client = UUID.randomUUID();
    List<MaintenanceTable.Activity> activity = CommitActivity.of(List.of(
        commit(1, client, "sales.orders", List.of(snapshot("1", "1", "100"))),
        commit(2, client, "sales.Orders", List.of(snapshot("1", "2", "200"),
            snapshot("0", "2", "200"))),
        commit(3, MaintenanceSchedulerIdentity.PRINCIPAL.id(), "sales.orders",
            List.of(snapshot("1", "1", "190"))),
        commit(4, client, "sales.other.dotted", List.of(Map.of("summary", Map.of(
            "total-data-files", "not a number"))))));
    assertThat(activity).hasSize(2);
    MaintenanceTable.Activity orders = activity.get(0);
    assertThat(orders.commits()).as("the scheduler's own commit is no activity").isEqualTo(2);
    assertThat(orders.addedSnapshots()).isEqualTo(3);
    assertThat(orders.dataCommits()).isEqualTo(2);
    assertThat(orders.totalDataFiles()).hasValue(1);
    assertThat(orders.totalFilesSize()).hasValue(190);
    MaintenanceTable.Activity dotted = activity.get(1);
    assertThat(dotted.name()).isEqualTo("other.dotted");
    assertThat(dotted.totalDataFiles()).isEmpty();
  }
}
