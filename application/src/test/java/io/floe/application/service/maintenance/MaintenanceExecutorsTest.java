package io.floe.application.service.maintenance;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.floe.application.model.MaintenanceJob;
import io.floe.application.model.MaintenancePolicy;
import io.floe.application.model.MaintenanceTable;
import io.floe.application.port.out.MaintenanceExecutor;
import io.floe.domain.Org;
import io.floe.domain.OrgName;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * The registry the scheduler takes executors from, on fakes: a job goes to the executor of the
 * kind its policy named and to no other, a kind with no executor fails the attempt saying so (as
 * a failure the job's record keeps as it is), and two executors of one kind are refused.
 */
class MaintenanceExecutorsTest {
  private static final Instant NOW = Instant.parse("2026-03-04T05:06:07Z");
  private final List<String> ran = new ArrayList<>();

  /** An executor of {@code kind} that notes each job it runs. */
  private MaintenanceExecutor fake(String kind) {
    return new MaintenanceExecutor() {
      @Override
      public String kind() {
        return kind;
      }

      @Override
      public Outcome run(Job job) {
        ran.add(kind + ":" + job.job().id());
        return new Outcome(kind + " done", MaintenanceTable.Observed.NOTHING);
      }
    };
  }

  private static MaintenanceExecutor.Job job(long id, String executor) {
    Org org = new Org(UUID.randomUUID(), new OrgName("acme"), true);
    MaintenanceJob planned = new MaintenanceJob(id, org.id(), "sales", "orders",
        Set.of(MaintenanceJob.Step.COMPACT), "20 small files", MaintenanceJob.State.RUNNING, 1,
        NOW, NOW, Optional.of("replica-a"), Optional.of(NOW), Optional.of(NOW),
        Optional.empty(), Optional.empty(), Optional.empty(), executor);
    return new MaintenanceExecutor.Job(planned, org, UUID.randomUUID(), UUID.randomUUID(),
        new MaintenancePolicy(null, null, null, null, 8L << 20, null, executor),
        planned.steps(), NOW);
  }

  @Test
  void eachJobRunsOnTheExecutorOfItsKindOnly() {
    MaintenanceExecutors executors = MaintenanceExecutors.of(fake(MaintenancePolicy.IN_PROCESS),
        fake(MaintenancePolicy.SPARK));

    MaintenanceExecutor.Outcome spark = executors.forKind(MaintenancePolicy.SPARK)
        .run(job(1, MaintenancePolicy.SPARK));
    MaintenanceExecutor.Outcome local = executors.forKind(MaintenancePolicy.IN_PROCESS)
        .run(job(2, MaintenancePolicy.IN_PROCESS));

    assertThat(spark.outcome()).isEqualTo("spark done");
    assertThat(local.outcome()).isEqualTo("in-process done");
    assertThat(ran).containsExactly("spark:1", "in-process:2");
  }

  @Test
  void aKindWithNoExecutorFailsTheAttemptSayingSoAndRunsNothingElse() {
    MaintenanceExecutors executors = MaintenanceExecutors.of(fake(MaintenancePolicy.IN_PROCESS));

    assertThatThrownBy(() -> executors.forKind(MaintenancePolicy.SPARK)
        .run(job(1, MaintenancePolicy.SPARK)))
        .isInstanceOf(MaintenanceExecutor.Failed.class)
        .hasMessageContaining("no maintenance executor of kind spark");
    assertThat(ran).isEmpty();
  }

  @Test
  void sparkUnconfiguredFailsWithHowToConfigureIt() {
    MaintenanceExecutors executors = MaintenanceExecutors.of(fake(MaintenancePolicy.IN_PROCESS),
        DistributedMaintenanceExecutor.notConfigured());

    assertThatThrownBy(() -> executors.forKind(MaintenancePolicy.SPARK)
        .run(job(1, MaintenancePolicy.SPARK)))
        .isInstanceOf(MaintenanceExecutor.Failed.class)
        .hasMessageContaining("--spark-submit");
    assertThat(ran).isEmpty();
  }

  @Test
  void twoExecutorsOfOneKindAreRefused() {
    assertThatThrownBy(() -> MaintenanceExecutors.of(fake(MaintenancePolicy.SPARK),
        fake(MaintenancePolicy.SPARK)))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("spark");
  }
}
