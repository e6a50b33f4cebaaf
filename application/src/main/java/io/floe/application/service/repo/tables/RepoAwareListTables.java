package io.floe.application.service.repo.tables;

import io.floe.application.port.in.table.ListTablesUseCase;
import io.floe.application.security.OrgContext;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.rest.responses.ListTablesResponse;

/** Lists plain namespaces' tables as before, and the tables a repo version declares. */
public final class RepoAwareListTables implements ListTablesUseCase {
  private final ListTablesUseCase plain;
  private final RepoRouting routing;
  private final RepoTableReads reads;

  public RepoAwareListTables(ListTablesUseCase plain, RepoRouting routing, RepoTableReads reads) {
    this.plain = plain;
    this.routing = routing;
    this.reads = reads;
  }

  @Override
  public ListTablesResponse listTables(OrgContext context, Namespace namespace, String pageToken,
      Integer pageSize) {
    return routing.route(context, namespace,
        () -> plain.listTables(context, namespace, pageToken, pageSize),
        repo -> reads.list(repo, pageToken, pageSize));
  }
}
