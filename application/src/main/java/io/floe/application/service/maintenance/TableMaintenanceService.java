package io.floe.application.service.maintenance;

import io.floe.application.iceberg.MetadataFiles;
import io.floe.application.model.AuditAction;
import io.floe.application.model.AuditTarget;
import io.floe.application.model.AuditedChange;
import io.floe.application.model.TableMaintenance;
import io.floe.application.port.in.maintenance.MaintainTableUseCase;
import io.floe.application.port.in.table.CommitTableUseCase;
import io.floe.application.port.out.BucketStorageProvider;
import io.floe.application.port.out.DataFileRewriter;
import io.floe.application.port.out.MaintenanceEvents;
import io.floe.application.security.AccessPolicy;
import io.floe.application.security.OrgContext;
import io.floe.application.service.catalog.CatalogLocator;
import io.floe.application.service.catalog.ResolvedObject;
import io.floe.application.service.catalog.ResolvedTable;
import io.floe.application.service.change.ChangePublisher;
import io.floe.domain.Action;
import java.time.Clock;
import org.apache.iceberg.BaseTable;
import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.exceptions.BadRequestException;

/**
 * Runs the maintenance steps asked for on one table, in process: compaction
 * ({@link DataCompaction}), snapshot expiry ({@link SnapshotExpiry}), manifest rewrite
 * ({@link ManifestRewrite}), then orphan removal ({@link OrphanFileRemoval}), last so that it
 * sees what the others left unreferenced. A run that names no step runs the steps the table's
 * maintenance policy turns on. The caller must be allowed to write the table, checked
 * before anything is read; every commit goes through the commit use case like a client's. The
 * run is audited once, with what each step did.
 *
 * <p>Tables a repo declares are refused: the repo's history keeps their earlier versions, which
 * expiry and orphan removal would take files from; {@code floe repos gc} collects their garbage.
 */
public final class TableMaintenanceService implements MaintainTableUseCase {
  private final CatalogLocator locator;
  private final AccessPolicy policy;
  private final MetadataFiles files;
  private final CommitTableUseCase commits;
  private final ChangePublisher publisher;
  private final DataCompaction compaction;
  private final SnapshotExpiry expiry;
  private final ManifestRewrite manifests;
  private final OrphanFileRemoval orphans;
  private final MaintenanceEvents events;
  private final PolicyLevels policies;

  public TableMaintenanceService(CatalogLocator locator, AccessPolicy policy, MetadataFiles files,
      CommitTableUseCase commits, ChangePublisher publisher, DataFileRewriter rewriter,
      BucketStorageProvider storage, MaintenanceEvents events, PolicyLevels policies,
      Clock clock) {
    this.locator = locator;
    this.policy = policy;
    this.files = files;
    this.commits = commits;
    this.publisher = publisher;
    this.compaction = new DataCompaction(rewriter);
    this.expiry = new SnapshotExpiry(clock);
    this.manifests = new ManifestRewrite();
    this.orphans = new OrphanFileRemoval(files, storage, clock, policies.orphanFloor());
    this.events = events;
    this.policies = policies;
  }

  @Override
  public TableMaintenance maintain(OrgContext context, TableIdentifier identifier,
      Steps asked) {
    ResolvedTable resolved = locator.table(context, identifier);
    resolved.require(policy, context, Action.WRITE);
    if (!(resolved instanceof ResolvedObject object)) {
      throw new BadRequestException("Table %s is declared by a repo, whose history keeps its "
          + "earlier versions; collect its garbage with the repo's garbage collection instead",
          identifier);
    }
    asked.removeOrphans().ifPresent(orphanRemoval ->
        policies.orphanFloor().require(orphanRemoval.grace(), "The grace period"));
    Steps steps = asked.isEmpty()
        ? PolicySteps.of(policies.effectiveFor(object, context), asked.dryRun()) : asked;
    if (steps.isEmpty()) {
      throw new BadRequestException("No maintenance step was named and no maintenance policy "
          + "applies to %s: name a step (compact, expire_snapshots, rewrite_manifests, "
          + "remove_orphans) or set a policy", identifier);
    }
    if (steps.dryRun()) {
      return run(context, identifier, resolved, steps);
    }
    TableMaintenance report;
    try {
      report = run(context, identifier, resolved, steps);
    } catch (RuntimeException e) {
      events.failed();
      throw e;
    }
    events.ran();
    return publisher.publish(context, audited(identifier, report), report, () -> { });
  }

  private TableMaintenance run(OrgContext context, TableIdentifier identifier,
      ResolvedTable resolved, Steps steps) {
    boolean dryRun = steps.dryRun();
    Table table = new BaseTable(new CatalogTableOperations(context, identifier, resolved,
        locator, files, commits), identifier.toString());
    TableMaintenance.Compaction compacted = steps.compact()
        .map(settings -> compaction.run(table, settings, dryRun)).orElse(null);
    TableMaintenance.Expiry expired = steps.expire()
        .map(settings -> expiry.run(table, settings, dryRun)).orElse(null);
    TableMaintenance.Manifests rewritten = steps.rewriteManifests()
        .map(settings -> manifests.run(table, settings, dryRun)).orElse(null);
    TableMaintenance.Orphans removed = steps.removeOrphans()
        .map(settings -> orphans.run(locator.table(context, identifier), settings, dryRun))
        .orElse(null);
    return new TableMaintenance(identifier.toString(), dryRun, compacted, expired, rewritten,
        removed);
  }

  /** The audit entry of a run: what each step did, in numbers. */
  private static AuditedChange audited(TableIdentifier identifier, TableMaintenance report) {
    TableMaintenance.Compaction compacted = report.compaction();
    TableMaintenance.Expiry expired = report.expiry();
    TableMaintenance.Manifests rewritten = report.manifests();
    TableMaintenance.Orphans removed = report.orphans();
    AuditedChange change = AuditedChange.of(AuditAction.TABLE_MAINTAIN, AuditTarget.Kind.TABLE,
        identifier);
    if (compacted != null) {
      change = change.with("compaction", compacted.outcome())
          .with("compacted_files", compacted.inputFiles())
          .with("written_files", compacted.outputFiles());
    }
    if (expired != null) {
      change = change.with("expired_snapshots", expired.expiredSnapshotIds().size());
      if (!expired.refusedFiles().isEmpty()) {
        change = change.with("refused_foreign_files", expired.refusedFiles().size());
      }
    }
    if (rewritten != null) {
      change = change.with("manifests_before", rewritten.manifestsBefore())
          .with("manifests_after", rewritten.manifestsAfter());
    }
    if (removed != null) {
      change = change.with("deleted_orphans", removed.files().size())
          .with("deleted_orphan_bytes", removed.totalBytes());
    }
    return change;
  }
}
