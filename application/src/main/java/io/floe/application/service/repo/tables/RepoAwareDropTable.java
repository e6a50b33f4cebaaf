package io.floe.application.service.repo.tables;

import io.floe.application.port.in.table.DropTableUseCase;
import io.floe.application.security.OrgContext;
import org.apache.iceberg.catalog.TableIdentifier;

/** Drops plain tables as before; a repo's table is refused (see {@link RepoTableRefusals}). */
public final class RepoAwareDropTable implements DropTableUseCase {
  private final DropTableUseCase plain;
  private final RepoRouting routing;

  public RepoAwareDropTable(DropTableUseCase plain, RepoRouting routing) {
    this.plain = plain;
    this.routing = routing;
  }

  @Override
  public void dropTable(OrgContext context, TableIdentifier identifier, boolean purgeRequested) {
    routing.run(context, identifier.namespace(),
        () -> plain.dropTable(context, identifier, purgeRequested),
        repo -> {
          throw RepoTableRefusals.refused(purgeRequested ? "purge" : "drop", identifier, repo);
        });
  }
}
