package io.floe.application.service.view;

import io.floe.application.port.in.view.ListViewsUseCase;
import io.floe.application.port.out.CatalogObjectStore;
import io.floe.application.security.AccessPolicy;
import io.floe.application.security.OrgContext;
import io.floe.application.service.catalog.CatalogListing;
import io.floe.application.service.catalog.CatalogLocator;
import io.floe.domain.CatalogObject;
import org.apache.iceberg.rest.responses.ListTablesResponse;

/**
 * Pages through a namespace's views, filtered to those the caller may see before paging; a repo
 * version has none.
 */
public final class ListViewsService implements ListViewsUseCase {
  private final CatalogLocator locator;
  private final AccessPolicy policy;
  private final CatalogObjectStore objects;

  public ListViewsService(CatalogLocator locator, AccessPolicy policy,
      CatalogObjectStore objects) {
    this.locator = locator;
    this.policy = policy;
    this.objects = objects;
  }

  @Override
  public ListTablesResponse listViews(OrgContext context,
      org.apache.iceberg.catalog.Namespace namespace, String pageToken, Integer pageSize) {
    return locator.eitherNamespace(context, namespace,
        found -> CatalogListing.list(found, policy.tableScope(context, found), objects,
            CatalogObject.Kind.VIEW, namespace, pageToken, pageSize),
        repo -> ListTablesResponse.builder().build());
  }
}
