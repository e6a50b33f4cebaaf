package io.floe.application.service.repo.tables;

import io.floe.application.model.AccessDelegation;
import io.floe.application.port.in.table.CreateTableUseCase;
import io.floe.application.security.OrgContext;
import java.util.Set;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.rest.requests.CreateTableRequest;
import org.apache.iceberg.rest.responses.LoadTableResponse;

/** Creates plain tables as before; in a repo branch, a table the repo declares. */
public final class RepoAwareCreateTable implements CreateTableUseCase {
  private final CreateTableUseCase plain;
  private final RepoRouting routing;
  private final RepoTableCreation creation;

  public RepoAwareCreateTable(CreateTableUseCase plain, RepoRouting routing,
      RepoTableCreation creation) {
    this.plain = plain;
    this.routing = routing;
    this.creation = creation;
  }

  @Override
  public LoadTableResponse createTable(OrgContext context, Namespace namespace,
      CreateTableRequest request, Set<AccessDelegation> delegation) {
    return routing.route(context, namespace,
        () -> plain.createTable(context, namespace, request, delegation),
        repo -> creation.create(context, repo, request, delegation));
  }
}
