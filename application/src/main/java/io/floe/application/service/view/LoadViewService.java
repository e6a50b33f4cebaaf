package io.floe.application.service.view;

import io.floe.application.iceberg.MetadataFiles;
import io.floe.application.port.in.view.LoadViewUseCase;
import io.floe.application.security.AccessPolicy;
import io.floe.application.security.OrgContext;
import io.floe.application.service.catalog.CatalogLocator;
import io.floe.application.service.catalog.ResolvedObject;
import io.floe.domain.Action;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.rest.responses.LoadViewResponse;

/** Loads a view's current metadata. */
public final class LoadViewService implements LoadViewUseCase {
  private final CatalogLocator locator;
  private final AccessPolicy policy;
  private final MetadataFiles files;

  public LoadViewService(CatalogLocator locator, AccessPolicy policy, MetadataFiles files) {
    this.locator = locator;
    this.policy = policy;
    this.files = files;
  }

  @Override
  public LoadViewResponse loadView(OrgContext context, TableIdentifier identifier) {
    ResolvedObject view = locator.view(context, identifier);
    policy.require(context, Action.READ, view.namespace(), view.object());
    return ViewResponses.of(files.readView(view.bucket(), view.object().metadataLocation()));
  }
}
