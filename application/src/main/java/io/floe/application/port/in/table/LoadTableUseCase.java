package io.floe.application.port.in.table;

import io.floe.application.model.AccessDelegation;
import io.floe.application.security.OrgContext;
import java.util.Set;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.rest.RESTCatalogProperties.SnapshotMode;
import org.apache.iceberg.rest.responses.LoadTableResponse;

/** Loads a table's current metadata, the request engines send most. */
public interface LoadTableUseCase {
  /** A loaded table and the location its response was built from (the ETag's input). */
  record LoadedTable(LoadTableResponse response, String metadataLocation) {}

  /** {@code delegation} is the storage access the engine asked for. */
  LoadedTable loadTable(OrgContext context, TableIdentifier identifier, SnapshotMode mode,
      Set<AccessDelegation> delegation);

  /** The metadata location the table points at now: cheap, for conditional requests. */
  String currentMetadataLocation(OrgContext context, TableIdentifier identifier);
}
