package io.floe.application.service.catalog;

import io.floe.application.iceberg.PageToken;
import io.floe.application.model.TableScope;
import io.floe.application.port.out.CatalogObjectStore;
import io.floe.domain.CatalogObject;
import io.floe.domain.Namespace;
import java.util.List;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.rest.responses.ListTablesResponse;

/** One page of a namespace's tables or views, by keyset pagination on the name. */
public final class CatalogListing {
  private CatalogListing() {}

  public static ListTablesResponse list(Namespace namespace, TableScope scope,
      CatalogObjectStore objects, CatalogObject.Kind kind,
      org.apache.iceberg.catalog.Namespace namespaceId, String pageToken, Integer pageSize) {
    int fetch = PageToken.fetchSize(pageSize);
    List<CatalogObject> rows =
        objects.list(namespace.id(), kind, scope, PageToken.decode(pageToken), fetch);
    boolean more = pageSize != null && rows.size() == fetch;
    List<CatalogObject> page = more ? rows.subList(0, fetch - 1) : rows;
    ListTablesResponse.Builder response = ListTablesResponse.builder();
    page.forEach(row -> response.add(TableIdentifier.of(namespaceId, row.name().value())));
    if (more) {
      response.nextPageToken(PageToken.encode(page.get(page.size() - 1).name().value()));
    }
    return response.build();
  }
}
