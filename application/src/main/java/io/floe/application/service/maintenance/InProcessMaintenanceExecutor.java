package io.floe.application.service.maintenance;

import io.floe.application.model.MaintenancePolicy;
import io.floe.application.model.MaintenanceTable;
import io.floe.application.model.TableMaintenance;
import io.floe.application.port.in.maintenance.MaintainTableUseCase;
import io.floe.application.port.out.MaintenanceExecutor;
import io.floe.application.security.MaintenanceSchedulerIdentity;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.catalog.TableIdentifier;

/**
 * The {@value MaintenancePolicy#IN_PROCESS} executor: runs a job's steps in this server through
 * the table maintenance use case, as the scheduler's own principal, so its commits go through the
 * catalog's one committer like any client's and its run is audited like a run asked for by hand.
 */
public final class InProcessMaintenanceExecutor implements MaintenanceExecutor {
  private final MaintainTableUseCase maintenance;

  public InProcessMaintenanceExecutor(MaintainTableUseCase maintenance) {
    this.maintenance = maintenance;
  }

  @Override
  public String kind() {
    return MaintenancePolicy.IN_PROCESS;
  }

  @Override
  public Outcome run(Job job) {
    TableMaintenance report = maintenance.maintain(
        MaintenanceSchedulerIdentity.in(job.org(), job.job().id()),
        TableIdentifier.of(Namespace.of(job.job().namespace()), job.job().name()),
        PolicySteps.planned(job.steps(), job.policy()));
    return new Outcome(outcome(report), observed(report));
  }

  /** What a run did, in a line. */
  private static String outcome(TableMaintenance report) {
    List<String> parts = new ArrayList<>();
    if (report.compaction() != null) {
      parts.add("compaction " + report.compaction().outcome() + " ("
          + report.compaction().inputFiles() + " files into "
          + report.compaction().outputFiles() + ")");
    }
    if (report.expiry() != null) {
      parts.add("expiry " + report.expiry().outcome() + " ("
          + report.expiry().expiredSnapshotIds().size() + " expired, "
          + report.expiry().remainingSnapshots() + " remain"
          + (report.expiry().refusedFiles().isEmpty() ? "" : ", "
              + report.expiry().refusedFiles().size() + " files outside the table not deleted")
          + ")");
    }
    if (report.manifests() != null) {
      parts.add("manifests " + report.manifests().outcome() + " ("
          + report.manifests().manifestsBefore() + " to "
          + report.manifests().manifestsAfter() + ")");
    }
    if (report.orphans() != null) {
      parts.add("orphans " + report.orphans().outcome() + " (" + report.orphans().files().size()
          + " removed)");
    }
    return String.join("; ", parts);
  }

  /** What the run saw of the table at its end, for the planner's counters. */
  private static MaintenanceTable.Observed observed(TableMaintenance report) {
    return new MaintenanceTable.Observed(
        Optional.ofNullable(report.expiry()).map(TableMaintenance.Expiry::remainingSnapshots),
        Optional.ofNullable(report.manifests()).map(TableMaintenance.Manifests::manifestsAfter),
        report.orphans() != null);
  }
}
