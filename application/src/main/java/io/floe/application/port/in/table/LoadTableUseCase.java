package io.floe.application.port.in.table;

import io.floe.application.iceberg.SerializedMetadata;
import io.floe.application.model.AccessDelegation;
import io.floe.application.security.OrgContext;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Supplier;
import org.apache.iceberg.TableMetadata;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.rest.RESTCatalogProperties.SnapshotMode;
import org.apache.iceberg.rest.credentials.Credential;
import org.apache.iceberg.rest.responses.LoadTableResponse;

/** Loads a table's current metadata, the request engines send most. */
public interface LoadTableUseCase {
  /**
   * A loaded table: the location its metadata was read from (the ETag's input), that metadata
   * serialized for the snapshot mode asked for (made once per file and mode, shared by every
   * load), the same parsed (read on demand, for callers that look inside), and the storage access
   * for the engine.
   */
  record LoadedTable(String metadataLocation, SerializedMetadata metadataJson,
      Supplier<TableMetadata> metadata, Map<String, String> config,
      List<Credential> credentials) {
    public LoadedTable {
      config = Map.copyOf(config);
      credentials = List.copyOf(credentials);
    }

    /** The response as Iceberg's classes hold it; parses the metadata if it is not at hand. */
    public LoadTableResponse response() {
      return LoadTableResponse.builder().withTableMetadata(metadata.get()).addAllConfig(config)
          .addAllCredentials(credentials).build();
    }
  }

  /** {@code delegation} is the storage access the engine asked for. */
  LoadedTable loadTable(OrgContext context, TableIdentifier identifier, SnapshotMode mode,
      Set<AccessDelegation> delegation);

  /** The metadata location the table points at now: cheap, for conditional requests. */
  String currentMetadataLocation(OrgContext context, TableIdentifier identifier);
}
