package io.floe.application.service.repo.tables;

import io.floe.application.port.in.view.ListViewsUseCase;
import io.floe.application.security.OrgContext;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.rest.responses.ListTablesResponse;

/** Lists plain namespaces' views as before; a repo version has none. */
public final class RepoAwareListViews implements ListViewsUseCase {
  private final ListViewsUseCase plain;
  private final RepoRouting routing;

  public RepoAwareListViews(ListViewsUseCase plain, RepoRouting routing) {
    this.plain = plain;
    this.routing = routing;
  }

  @Override
  public ListTablesResponse listViews(OrgContext context, Namespace namespace, String pageToken,
      Integer pageSize) {
    return routing.route(context, namespace,
        () -> plain.listViews(context, namespace, pageToken, pageSize),
        repo -> ListTablesResponse.builder().build());
  }
}
