package io.floe.application.service.maintenance;

import io.floe.application.model.MaintenanceJob;
import io.floe.application.model.MaintenanceTable;
import io.floe.application.port.in.maintenance.ListMaintenanceJobsUseCase;
import io.floe.application.port.out.MaintenanceJobStore;
import io.floe.application.security.AccessPolicy;
import io.floe.application.security.OrgContext;
import io.floe.application.service.catalog.CatalogLocator;
import io.floe.application.service.catalog.ResolvedObject;
import io.floe.application.service.catalog.ResolvedTable;
import io.floe.domain.Action;
import java.util.List;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.exceptions.BadRequestException;

/** Lists a table's maintenance jobs once the caller may read the table. */
public final class ListMaintenanceJobsService implements ListMaintenanceJobsUseCase {
  private final CatalogLocator locator;
  private final AccessPolicy access;
  private final MaintenanceJobStore jobs;

  public ListMaintenanceJobsService(CatalogLocator locator, AccessPolicy access,
      MaintenanceJobStore jobs) {
    this.locator = locator;
    this.access = access;
    this.jobs = jobs;
  }

  @Override
  public List<MaintenanceJob> jobs(OrgContext context, TableIdentifier identifier, int limit) {
    if (limit < 1 || limit > MAX_LIMIT) {
      throw new BadRequestException("limit must be from 1 to %d", MAX_LIMIT);
    }
    ResolvedTable table = locator.table(context, identifier);
    table.require(access, context, Action.READ);
    if (!(table instanceof ResolvedObject object)) {
      return List.of(); // a repo's tables are collected by the repo, never scheduled
    }
    return jobs.jobs(context.org().id(), MaintenanceTable.key(
        object.namespace().name().value(), object.object().name().value()), limit);
  }
}
