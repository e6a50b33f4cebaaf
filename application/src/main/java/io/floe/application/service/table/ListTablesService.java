package io.floe.application.service.table;

import io.floe.application.port.in.table.ListTablesUseCase;
import io.floe.application.port.out.CatalogObjectStore;
import io.floe.application.security.AccessPolicy;
import io.floe.application.security.OrgContext;
import io.floe.application.service.catalog.CatalogListing;
import io.floe.application.service.catalog.CatalogLocator;
import io.floe.domain.CatalogObject;
import org.apache.iceberg.rest.responses.ListTablesResponse;

/**
 * Pages through a namespace's tables, filtered to those the caller may see before paging; a repo
 * version's are the tables it declares.
 */
public final class ListTablesService implements ListTablesUseCase {
  private final CatalogLocator locator;
  private final AccessPolicy policy;
  private final CatalogObjectStore objects;

  public ListTablesService(CatalogLocator locator, AccessPolicy policy,
      CatalogObjectStore objects) {
    this.locator = locator;
    this.policy = policy;
    this.objects = objects;
  }

  @Override
  public ListTablesResponse listTables(OrgContext context,
      org.apache.iceberg.catalog.Namespace namespace, String pageToken, Integer pageSize) {
    return locator.eitherNamespace(context, namespace,
        found -> CatalogListing.list(found, policy.tableScope(context, found), objects,
            CatalogObject.Kind.TABLE, namespace, pageToken, pageSize),
        repo -> CatalogListing.listDeclared(repo, pageToken, pageSize));
  }
}
