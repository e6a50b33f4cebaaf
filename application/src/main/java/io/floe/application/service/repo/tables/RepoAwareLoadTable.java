package io.floe.application.service.repo.tables;

import io.floe.application.model.AccessDelegation;
import io.floe.application.port.in.table.LoadTableUseCase;
import io.floe.application.security.OrgContext;
import java.util.Set;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.rest.RESTCatalogProperties.SnapshotMode;

/** Loads plain tables as before, and the tables repo versions declare. */
public final class RepoAwareLoadTable implements LoadTableUseCase {
  private final LoadTableUseCase plain;
  private final RepoRouting routing;
  private final RepoTableReads reads;

  public RepoAwareLoadTable(LoadTableUseCase plain, RepoRouting routing, RepoTableReads reads) {
    this.plain = plain;
    this.routing = routing;
    this.reads = reads;
  }

  @Override
  public LoadedTable loadTable(OrgContext context, TableIdentifier identifier, SnapshotMode mode,
      Set<AccessDelegation> delegation) {
    return routing.route(context, identifier.namespace(),
        () -> plain.loadTable(context, identifier, mode, delegation),
        repo -> reads.load(context, repo, identifier, mode, delegation));
  }

  @Override
  public String currentMetadataLocation(OrgContext context, TableIdentifier identifier) {
    return routing.route(context, identifier.namespace(),
        () -> plain.currentMetadataLocation(context, identifier),
        repo -> reads.currentMetadataLocation(repo, identifier));
  }
}
