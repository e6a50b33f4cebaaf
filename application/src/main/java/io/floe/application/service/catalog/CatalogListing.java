package io.floe.application.service.catalog;

import io.floe.application.iceberg.PageToken;
import io.floe.application.model.TableScope;
import io.floe.application.port.out.CatalogObjectStore;
import io.floe.application.port.out.RepoVersions.RepoTable;
import io.floe.application.service.repo.tables.RepoNamespace;
import io.floe.domain.CatalogObject;
import io.floe.domain.Namespace;
import java.util.List;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.rest.responses.ListTablesResponse;

/**
 * One page of a namespace's tables or views, by keyset pagination on the name: a plain
 * namespace's from the catalog, a repo version's from what that version declares.
 */
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

  /** One page of the tables a repo version declares with a pointer; it has no views. */
  public static ListTablesResponse listDeclared(RepoNamespace namespace, String pageToken,
      Integer pageSize) {
    int fetch = PageToken.fetchSize(pageSize);
    String after = PageToken.decode(pageToken).orElse(null);
    List<String> names = namespace.version().tables().values().stream()
        .filter(table -> table.metadataLocation().isPresent())
        .map(RepoTable::name)
        .filter(name -> after == null || name.compareTo(after) > 0)
        .limit(fetch)
        .toList();
    boolean more = pageSize != null && names.size() == fetch;
    List<String> page = more ? names.subList(0, fetch - 1) : names;
    ListTablesResponse.Builder response = ListTablesResponse.builder();
    page.forEach(name -> response.add(TableIdentifier.of(namespace.namespace(), name)));
    if (more) {
      response.nextPageToken(PageToken.encode(page.get(page.size() - 1)));
    }
    return response.build();
  }
}
