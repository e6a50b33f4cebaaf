package io.floe.application.service.maintenance;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.floe.application.model.MaintenancePolicy;
import io.floe.application.port.in.maintenance.MaintainTableUseCase;
import java.time.Duration;
import org.apache.iceberg.exceptions.BadRequestException;
import org.junit.jupiter.api.Test;

/** How policy levels combine and which steps a policy turns on. */
class MaintenancePolicyTest {

  @Test
  void nothingRunsUnlessALevelTurnsItOn() {
    assertThat(PolicySteps.of(MaintenancePolicy.NONE, false).isEmpty()).isTrue();
    assertThat(MaintenancePolicy.NONE.isEmpty()).isTrue();
  }

  @Test
  void theNearestLevelWinsFieldByField() {
    MaintenancePolicy org = new MaintenancePolicy(86_400L, 3, 259_200L, null, null, null);
    MaintenancePolicy namespace = new MaintenancePolicy(null, 10, null, 5, null, null);
    MaintenancePolicy table = new MaintenancePolicy(3_600L, null, null, null, 8L << 20, null);

    MaintenancePolicy effective = table.over(namespace).over(org);

    assertThat(effective).isEqualTo(
        new MaintenancePolicy(3_600L, 10, 259_200L, 5, 8L << 20, null));
  }

  @Test
  void aPolicyTurnsOnTheStepsWhoseFieldsItSets() {
    MaintainTableUseCase.Steps steps =
        PolicySteps.of(new MaintenancePolicy(null, 4, null, 7, 16L << 20, null), true);

    assertThat(steps.dryRun()).isTrue();
    assertThat(steps.compact()).contains(new MaintainTableUseCase.Compaction(16L << 20,
        MaintainTableUseCase.DEFAULT_MIN_INPUT_FILES));
    assertThat(steps.expire()).contains(new MaintainTableUseCase.Expiry(
        MaintenancePolicy.DEFAULT_SNAPSHOT_MAX_AGE, 4));
    assertThat(steps.rewriteManifests())
        .contains(new MaintainTableUseCase.ManifestRewriting(8));
    assertThat(steps.removeOrphans()).isEmpty();

    assertThat(PolicySteps.of(new MaintenancePolicy(null, null, 600L, null, null, null), false)
        .removeOrphans()).contains(new MaintainTableUseCase.OrphanRemoval(
            Duration.ofMinutes(10)));
  }

  @Test
  void settingsOutsideTheirBoundsAreRefused() {
    assertThatThrownBy(() -> new MaintenancePolicy(null, 0, null, null, null, null))
        .isInstanceOf(BadRequestException.class);
    assertThatThrownBy(() -> new MaintenancePolicy(null, null, null, null, 1L, null))
        .isInstanceOf(BadRequestException.class);
    assertThatThrownBy(() -> new MaintenancePolicy(null, null, null, null, null, 1))
        .isInstanceOf(BadRequestException.class);
    assertThatThrownBy(() -> new MaintenancePolicy(-1L, null, null, null, null, null))
        .isInstanceOf(RuntimeException.class);
  }

  @Test
  void theExecutorIsInProcessOrSparkInheritedLikeAnyFieldAndInProcessWhenNoLevelSetsIt() {
    assertThatThrownBy(() -> new MaintenancePolicy(null, null, null, null, null, null, "hadoop"))
        .isInstanceOf(BadRequestException.class).hasMessageContaining("in-process, spark");
    assertThatThrownBy(() -> new MaintenancePolicy(null, null, null, null, null, null, "Spark"))
        .isInstanceOf(BadRequestException.class);
    MaintenancePolicy org = new MaintenancePolicy(null, null, null, null, null, null, "spark");
    MaintenancePolicy table = new MaintenancePolicy(null, 3, null, null, null, null);
    assertThat(table.over(org).executorOrDefault()).isEqualTo(MaintenancePolicy.SPARK);
    assertThat(new MaintenancePolicy(null, null, null, null, null, null, "in-process").over(org)
        .executorOrDefault()).isEqualTo(MaintenancePolicy.IN_PROCESS);
    assertThat(table.over(MaintenancePolicy.NONE).executorOrDefault())
        .isEqualTo(MaintenancePolicy.IN_PROCESS);
    assertThat(org.isEmpty()).as("an executor alone is a setting").isFalse();
    assertThat(PolicySteps.of(org, false).isEmpty()).as("but turns on no step").isTrue();
  }
}
