package io.floe.application.service.view;

import io.floe.application.port.in.view.RenameViewUseCase;
import io.floe.application.security.OrgContext;
import io.floe.application.service.catalog.CatalogLocator;
import io.floe.application.service.catalog.CatalogObjectRenamer;
import org.apache.iceberg.rest.requests.RenameTableRequest;

/** Renames a view; only its catalog entry moves. */
public final class RenameViewService implements RenameViewUseCase {
  private final CatalogLocator locator;
  private final CatalogObjectRenamer renamer;

  public RenameViewService(CatalogLocator locator, CatalogObjectRenamer renamer) {
    this.locator = locator;
    this.renamer = renamer;
  }

  @Override
  public void renameView(OrgContext context, RenameTableRequest request) {
    renamer.rename(context, request, () -> locator.view(context, request.source()));
  }
}
