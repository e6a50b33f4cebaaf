package io.floe.application.service.maintenance;

import io.floe.application.model.MaintenancePolicy;
import io.floe.application.model.MaintenanceTable;
import io.floe.application.port.in.maintenance.MaintainTableUseCase;
import io.floe.application.port.out.DistributedMaintenance;
import io.floe.application.port.out.MaintenanceExecutor;
import io.floe.application.security.MaintenanceJobTokens;
import java.time.Duration;
import java.time.Instant;
import java.util.Objects;

/**
 * The {@value MaintenancePolicy#SPARK} executor: runs a job on an engine outside the server
 * ({@link DistributedMaintenance}), which reaches the catalog over REST like any engine. The
 * token it gets is issued here, in the application, because its scope is a security rule: it
 * lets the job write its one table in its one org, until it expires
 * ({@link MaintenanceJobTokens}). Ages become instants from the attempt's start, as the engine's
 * procedures take them.
 */
public final class DistributedMaintenanceExecutor implements MaintenanceExecutor {
  private final DistributedMaintenance engine;
  private final MaintenanceJobTokens tokens;
  private final Duration tokenLifetime;

  /** {@code tokenLifetime}: at least as long as a job may run. */
  public DistributedMaintenanceExecutor(DistributedMaintenance engine, MaintenanceJobTokens tokens,
      Duration tokenLifetime) {
    this.engine = Objects.requireNonNull(engine, "engine");
    this.tokens = Objects.requireNonNull(tokens, "tokens");
    this.tokenLifetime = Objects.requireNonNull(tokenLifetime, "tokenLifetime");
  }

  /**
   * What runs Spark's jobs on a server started without Spark: each fails saying how to configure
   * it, and no token is issued for it.
   */
  public static MaintenanceExecutor notConfigured() {
    return MaintenanceExecutor.unavailable(MaintenancePolicy.SPARK,
        DistributedMaintenance.NOT_CONFIGURED);
  }

  @Override
  public String kind() {
    return MaintenancePolicy.SPARK;
  }

  @Override
  public Outcome run(Job job) {
    Instant now = job.at();
    MaintainTableUseCase.Steps steps = PolicySteps.planned(job.steps(), job.policy());
    String token = tokens.issue(job.org().id(), job.namespaceId(), job.tableId(), job.job().id(),
        tokenLifetime);
    DistributedMaintenance.Outcome outcome = engine.run(new DistributedMaintenance.Job(
        job.job().id(), job.org().name().value(), job.job().namespace(), job.job().name(), token,
        steps.compact().map(c -> new DistributedMaintenance.Compaction(c.targetFileSizeBytes(),
            c.minInputFiles())),
        steps.expire().map(e -> new DistributedMaintenance.Expiry(now.minus(e.olderThan()),
            e.retainLast())),
        steps.rewriteManifests().isPresent(),
        steps.removeOrphans().map(o -> now.minus(o.grace())), false));
    return new Outcome(outcome.outcome(), new MaintenanceTable.Observed(outcome.snapshots(),
        outcome.dataManifests(), steps.removeOrphans().isPresent()));
  }
}
