package io.floe.application.service.repo.tables;

import io.floe.application.port.in.table.RegisterTableUseCase;
import io.floe.application.security.OrgContext;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.rest.requests.RegisterTableRequest;
import org.apache.iceberg.rest.responses.LoadTableResponse;

/** Registers tables in plain namespaces as before; a repo version registers none. */
public final class RepoAwareRegisterTable implements RegisterTableUseCase {
  private final RegisterTableUseCase plain;
  private final RepoRouting routing;

  public RepoAwareRegisterTable(RegisterTableUseCase plain, RepoRouting routing) {
    this.plain = plain;
    this.routing = routing;
  }

  @Override
  public LoadTableResponse registerTable(OrgContext context, Namespace namespace,
      RegisterTableRequest request) {
    return routing.route(context, namespace,
        () -> plain.registerTable(context, namespace, request),
        repo -> {
          throw RepoTableRefusals.refusedIn("register a table", repo);
        });
  }
}
