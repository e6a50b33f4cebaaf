package io.floe.application.service.table.planning;

import io.floe.application.iceberg.MetadataFiles;
import io.floe.application.model.AccessDelegation;
import io.floe.application.port.in.table.PlanTableScanUseCase;
import io.floe.application.security.AccessPolicy;
import io.floe.application.security.OrgContext;
import io.floe.application.service.catalog.CatalogLocator;
import io.floe.application.service.catalog.ResolvedTable;
import io.floe.application.service.catalog.TableLocations;
import io.floe.application.service.storage.TableStorageAccess;
import io.floe.application.service.table.planning.PlanTokens.Claims;
import io.floe.application.service.table.planning.PlanTokens.Kind;
import io.floe.domain.Action;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.function.Function;
import org.apache.iceberg.DeleteFile;
import org.apache.iceberg.FileScanTask;
import org.apache.iceberg.TableMetadata;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.exceptions.BadRequestException;
import org.apache.iceberg.exceptions.NoSuchPlanIdException;
import org.apache.iceberg.exceptions.NoSuchPlanTaskException;
import org.apache.iceberg.io.FileIO;
import org.apache.iceberg.rest.PlanStatus;
import org.apache.iceberg.rest.requests.FetchScanTasksRequest;
import org.apache.iceberg.rest.requests.PlanTableScanRequest;
import org.apache.iceberg.rest.requests.PlanTableScanRequestParser;
import org.apache.iceberg.rest.responses.FetchPlanningResultResponse;
import org.apache.iceberg.rest.responses.FetchScanTasksResponse;
import org.apache.iceberg.rest.responses.PlanTableScanResponse;

/**
 * Plans scans on the server with iceberg-core's own scans ({@link TableScans}), synchronously:
 * a plan is {@code completed} in its answer, never {@code submitted}. The caller needs what a
 * load needs (reading the table, resolved as a load resolves it), gets the storage credentials a
 * load would give, and every file a plan hands out lies in the table's own directory
 * ({@link TableLocations}). Plan ids and plan tasks are signed tokens ({@link PlanTokens}) bound
 * to the caller, the table and the snapshot: nothing is stored, any replica serves them, and one
 * presented by another caller or for another table is unknown (404).
 */
public final class PlanTableScanService implements PlanTableScanUseCase {
  private final CatalogLocator locator;
  private final AccessPolicy policy;
  private final MetadataFiles files;
  private final TableStorageAccess storageAccess;
  private final PlanTokens tokens;
  private final ScanPages pages;

  public PlanTableScanService(CatalogLocator locator, AccessPolicy policy, MetadataFiles files,
      TableStorageAccess storageAccess, PlanTokens tokens, ScanPlanningLimits limits) {
    this.locator = locator;
    this.policy = policy;
    this.files = files;
    this.storageAccess = storageAccess;
    this.tokens = tokens;
    this.pages = new ScanPages(limits.tasksPerPage(), limits.manifestReaders());
  }

  @Override
  public PlanTableScanResponse plan(OrgContext context, TableIdentifier identifier,
      PlanTableScanRequest request, Set<AccessDelegation> delegation) {
    ResolvedTable table = readable(context, identifier);
    TableMetadata metadata = files.readTable(table.bucket(), table.metadataLocation());
    PlanTableScanRequest pinned = TableScans.pinned(metadata, request);
    Claims plan = claims(Kind.PLAN_ID, context, metadata, pinned);
    ScanPages.Page page = planned(table, metadata, pinned, plan);
    return PlanTableScanResponse.builder().withPlanStatus(PlanStatus.COMPLETED)
        .withPlanId(tokens.issue(plan))
        .withFileScanTasks(page.tasks()).withDeleteFiles(deletes(page.tasks()))
        .withPlanTasks(page.planTasks()).withSpecsById(metadata.specsById())
        .withCredentials(storageAccess.grant(context, identifier, table.bucket(), table.path(),
            storageAccess.accessFor(context, table), delegation).credentials())
        .build();
  }

  @Override
  public FetchPlanningResultResponse result(OrgContext context, TableIdentifier identifier,
      String planId) {
    requireWellFormed(planId);
    ResolvedTable table = readable(context, identifier);
    TableMetadata metadata = files.readTable(table.bucket(), table.metadataLocation());
    Claims plan = opened(planId, Kind.PLAN_ID, context, metadata);
    PlanTableScanRequest pinned = PlanTableScanRequestParser.fromJson(plan.request());
    if (!TableScans.stillReadable(metadata, pinned)) {
      throw new NoSuchPlanIdException("No such plan for table %s", identifier);
    }
    ScanPages.Page page = planned(table, metadata, pinned, plan);
    return FetchPlanningResultResponse.builder().withPlanStatus(PlanStatus.COMPLETED)
        .withFileScanTasks(page.tasks()).withDeleteFiles(deletes(page.tasks()))
        .withPlanTasks(page.planTasks()).withSpecsById(metadata.specsById())
        .build();
  }

  @Override
  public FetchScanTasksResponse fetchTasks(OrgContext context, TableIdentifier identifier,
      FetchScanTasksRequest request) {
    ResolvedTable table = readable(context, identifier);
    TableMetadata metadata = files.readTable(table.bucket(), table.metadataLocation());
    Claims task = opened(request.planTask(), Kind.PLAN_TASK, context, metadata);
    PlanTableScanRequest pinned = PlanTableScanRequestParser.fromJson(task.request());
    if (!TableScans.stillReadable(metadata, pinned) || task.fromManifest() < 0
        || task.toManifest() < task.fromManifest() || task.skipTasks() < 0) {
      throw new NoSuchPlanTaskException("No such plan task for table %s", identifier);
    }
    ScanPages.Page page = pages.next(metadata, io(table), pinned, tokens::issue, task);
    requireWithin(table, page.tasks());
    return FetchScanTasksResponse.builder().withFileScanTasks(page.tasks())
        .withDeleteFiles(deletes(page.tasks())).withPlanTasks(page.planTasks())
        .withSpecsById(metadata.specsById()).build();
  }

  @Override
  public void cancel(OrgContext context, TableIdentifier identifier, String planId) {
    requireWellFormed(planId);
    readable(context, identifier);
  }

  /** A plan id this server could have made, or a 400: not every string is an unknown plan. */
  private void requireWellFormed(String planId) {
    if (!tokens.wellFormed(planId, Kind.PLAN_ID)) {
      throw new BadRequestException("Malformed plan id: not one this catalog answers");
    }
  }

  private ScanPages.Page planned(ResolvedTable table, TableMetadata metadata,
      PlanTableScanRequest pinned, Claims plan) {
    if (TableScans.empty(pinned)) {
      return new ScanPages.Page(List.of(), List.of());
    }
    Function<Claims, String> issue = tokens::issue;
    ScanPages.Page page = pages.first(metadata, io(table), pinned, issue, plan);
    requireWithin(table, page.tasks());
    return page;
  }

  /**
   * The FileIO a plan reads manifest lists and manifests through: confined to the table's
   * directory, so a manifest a writer placed elsewhere is refused before it is read.
   */
  private FileIO io(ResolvedTable table) {
    return files.tableIo(table.bucket(), table.rootUri());
  }

  /** Every data and delete file handed out lies in the table's directory (403 otherwise). */
  private static void requireWithin(ResolvedTable table, List<FileScanTask> tasks) {
    for (FileScanTask task : tasks) {
      TableLocations.requireWithin(table.bucket(), table.rootUri(), "data file",
          task.file().location());
      for (DeleteFile delete : task.deletes()) {
        TableLocations.requireWithin(table.bucket(), table.rootUri(), "delete file",
            delete.location());
      }
    }
  }

  /** The page's delete files, each once: tasks refer to them by their place in this list. */
  private static List<DeleteFile> deletes(List<FileScanTask> tasks) {
    Map<String, DeleteFile> deletes = new LinkedHashMap<>();
    for (FileScanTask task : tasks) {
      for (DeleteFile delete : task.deletes()) {
        deletes.putIfAbsent(delete.location(), delete);
      }
    }
    return List.copyOf(deletes.values());
  }

  private ResolvedTable readable(OrgContext context, TableIdentifier identifier) {
    ResolvedTable table = locator.table(context, identifier);
    table.require(policy, context, Action.READ);
    return table;
  }

  private static Claims claims(Kind kind, OrgContext context, TableMetadata metadata,
      PlanTableScanRequest pinned) {
    return new Claims(kind, context.org().id(), context.caller().principal().id(),
        tableUuid(metadata), 0, 0, 0, PlanTableScanRequestParser.toJson(pinned));
  }

  /** The claims of a token this caller may use on this table; any other is unknown (404). */
  private Claims opened(String token, Kind kind, OrgContext context, TableMetadata metadata) {
    return tokens.open(token, kind)
        .filter(claims -> claims.orgId().equals(context.org().id())
            && claims.principalId().equals(context.caller().principal().id())
            && claims.tableUuid().equals(tableUuid(metadata)))
        .orElseThrow(() -> kind == Kind.PLAN_ID
            ? new NoSuchPlanIdException("No such plan for this table")
            : new NoSuchPlanTaskException("No such plan task for this table"));
  }

  private static UUID tableUuid(TableMetadata metadata) {
    return metadata.uuid() == null ? new UUID(0, 0) : UUID.fromString(metadata.uuid());
  }
}
