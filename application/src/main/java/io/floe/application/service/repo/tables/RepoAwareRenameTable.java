package io.floe.application.service.repo.tables;

import io.floe.application.port.in.table.RenameTableUseCase;
import io.floe.application.security.OrgContext;
import org.apache.iceberg.rest.requests.RenameTableRequest;

/**
 * Renames plain tables as before; a repo's table is refused, and no table moves into a repo
 * version (see {@link RepoTableRefusals}).
 */
public final class RepoAwareRenameTable implements RenameTableUseCase {
  private final RenameTableUseCase plain;
  private final RepoRouting routing;

  public RepoAwareRenameTable(RenameTableUseCase plain, RepoRouting routing) {
    this.plain = plain;
    this.routing = routing;
  }

  @Override
  public void renameTable(OrgContext context, RenameTableRequest request) {
    routing.run(context, request.source().namespace(),
        () -> routing.run(context, request.destination().namespace(),
            () -> plain.renameTable(context, request),
            repo -> {
              throw RepoTableRefusals.refusedIn("rename a table into it", repo);
            }),
        repo -> {
          throw RepoTableRefusals.refused("rename", request.source(), repo);
        });
  }
}
