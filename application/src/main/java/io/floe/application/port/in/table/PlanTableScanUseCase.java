package io.floe.application.port.in.table;

import io.floe.application.model.AccessDelegation;
import io.floe.application.security.OrgContext;
import java.util.Set;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.rest.requests.FetchScanTasksRequest;
import org.apache.iceberg.rest.requests.PlanTableScanRequest;
import org.apache.iceberg.rest.responses.FetchPlanningResultResponse;
import org.apache.iceberg.rest.responses.FetchScanTasksResponse;
import org.apache.iceberg.rest.responses.PlanTableScanResponse;

/**
 * Server-side scan planning: the catalog reads a table's manifests and answers the files a scan
 * must read, with their deletes and residual filters, for a caller who may read the table.
 * Plans complete at once; a large one answers plan tasks that are fetched a page at a time.
 */
public interface PlanTableScanUseCase {
  /** Plans a scan; {@code delegation} is the storage access the engine asked for. */
  PlanTableScanResponse plan(OrgContext context, TableIdentifier identifier,
      PlanTableScanRequest request, Set<AccessDelegation> delegation);

  /** The tasks of a plan task a plan (or an earlier fetch) answered. */
  FetchScanTasksResponse fetchTasks(OrgContext context, TableIdentifier identifier,
      FetchScanTasksRequest request);

  /** The result of a plan by its id: a plan of another caller or table is unknown (404). */
  FetchPlanningResultResponse result(OrgContext context, TableIdentifier identifier,
      String planId);

  /** Cancels a plan: nothing to do, as plans complete at once, whoever's it is. */
  void cancel(OrgContext context, TableIdentifier identifier, String planId);
}
