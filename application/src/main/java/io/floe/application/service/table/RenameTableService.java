package io.floe.application.service.table;

import io.floe.application.port.in.table.RenameTableUseCase;
import io.floe.application.security.OrgContext;
import io.floe.application.service.catalog.CatalogLocator;
import io.floe.application.service.catalog.CatalogObjectRenamer;
import org.apache.iceberg.rest.requests.RenameTableRequest;

/** Renames a table; only its catalog entry moves. A repo's tables are never renamed. */
public final class RenameTableService implements RenameTableUseCase {
  private final CatalogLocator locator;
  private final CatalogObjectRenamer renamer;

  public RenameTableService(CatalogLocator locator, CatalogObjectRenamer renamer) {
    this.locator = locator;
    this.renamer = renamer;
  }

  @Override
  public void renameTable(OrgContext context, RenameTableRequest request) {
    renamer.rename(context, request,
        () -> locator.catalogTable(context, request.source(), "rename"));
  }
}
