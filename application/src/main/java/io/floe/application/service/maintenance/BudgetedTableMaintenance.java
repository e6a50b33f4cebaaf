package io.floe.application.service.maintenance;

import io.floe.application.model.TableMaintenance;
import io.floe.application.port.in.maintenance.MaintainTableUseCase;
import io.floe.application.security.OrgContext;
import io.floe.application.service.work.OrgWorkBudget;
import org.apache.iceberg.catalog.TableIdentifier;

/**
 * A maintenance run asked for through the API, within its org's budget of heavy work: it
 * rewrites and lists files in the server's JVM.
 */
public final class BudgetedTableMaintenance implements MaintainTableUseCase {
  private final MaintainTableUseCase maintenance;
  private final OrgWorkBudget budget;

  public BudgetedTableMaintenance(MaintainTableUseCase maintenance, OrgWorkBudget budget) {
    this.maintenance = maintenance;
    this.budget = budget;
  }

  @Override
  public TableMaintenance maintain(OrgContext context, TableIdentifier table, Steps steps) {
    try (OrgWorkBudget.Permit permit = budget.enter(context.org().id(), "maintenance run")) {
      return maintenance.maintain(context, table, steps);
    }
  }
}
