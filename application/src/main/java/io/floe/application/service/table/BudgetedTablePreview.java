package io.floe.application.service.table;

import io.floe.application.model.TablePreview;
import io.floe.application.port.in.table.PreviewTableUseCase;
import io.floe.application.security.OrgContext;
import io.floe.application.service.work.OrgWorkBudget;
import org.apache.iceberg.catalog.TableIdentifier;

/**
 * A preview within its org's budget of heavy work: reading data files in the server's JVM for a
 * page must not let one org's storm of previews slow the others.
 */
public final class BudgetedTablePreview implements PreviewTableUseCase {
  private final PreviewTableUseCase previews;
  private final OrgWorkBudget budget;

  public BudgetedTablePreview(PreviewTableUseCase previews, OrgWorkBudget budget) {
    this.previews = previews;
    this.budget = budget;
  }

  @Override
  public TablePreview preview(OrgContext context, TableIdentifier identifier) {
    try (OrgWorkBudget.Permit permit = budget.enter(context.org().id(), "preview")) {
      return previews.preview(context, identifier);
    }
  }
}
