package io.floe.application.port.in;

import io.floe.application.security.OrgContext;
import java.util.Set;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.rest.RESTCatalogProperties.SnapshotMode;
import org.apache.iceberg.rest.requests.CommitTransactionRequest;
import org.apache.iceberg.rest.requests.CreateTableRequest;
import org.apache.iceberg.rest.requests.RegisterTableRequest;
import org.apache.iceberg.rest.requests.RemoteSignRequest;
import org.apache.iceberg.rest.requests.RenameTableRequest;
import org.apache.iceberg.rest.requests.ReportMetricsRequest;
import org.apache.iceberg.rest.requests.UpdateTableRequest;
import org.apache.iceberg.rest.responses.ListTablesResponse;
import org.apache.iceberg.rest.responses.LoadCredentialsResponse;
import org.apache.iceberg.rest.responses.LoadTableResponse;
import org.apache.iceberg.rest.responses.RemoteSignResponse;

/** Tables as engines see them through the Iceberg REST protocol. */
public interface IcebergTablesUseCase {
  /** The table property that puts one table on another bucket of the org. */
  String BUCKET_PROPERTY = "floe.bucket";

  /** A loaded table and the location its response was built from (the ETag's input). */
  record LoadedTable(LoadTableResponse response, String metadataLocation) {}

  ListTablesResponse list(OrgContext context, Namespace namespace, String pageToken,
      Integer pageSize);

  /** Creates the table, or with {@code stageCreate} only returns the metadata it would have. */
  LoadTableResponse create(OrgContext context, Namespace namespace, CreateTableRequest request);

  LoadedTable load(OrgContext context, TableIdentifier identifier, SnapshotMode mode);

  /** As {@link #create}, with the storage access the engine asked for in {@code delegation}. */
  default LoadTableResponse create(OrgContext context, Namespace namespace,
      CreateTableRequest request, Set<AccessDelegation> delegation) {
    return create(context, namespace, request);
  }

  /** As {@link #load}, with the storage access the engine asked for in {@code delegation}. */
  default LoadedTable load(OrgContext context, TableIdentifier identifier, SnapshotMode mode,
      Set<AccessDelegation> delegation) {
    return load(context, identifier, mode);
  }

  /** The metadata location the table points at now: cheap, for conditional requests. */
  String currentMetadataLocation(OrgContext context, TableIdentifier identifier);

  LoadTableResponse commit(OrgContext context, TableIdentifier identifier,
      UpdateTableRequest request);

  /** Commits changes to several tables atomically: all or none. */
  void commitTransaction(OrgContext context, CommitTransactionRequest request);

  /** Removes the table from the catalog. Never deletes files, even when purge is requested. */
  void drop(OrgContext context, TableIdentifier identifier, boolean purgeRequested);

  void rename(OrgContext context, RenameTableRequest request);

  LoadTableResponse register(OrgContext context, Namespace namespace,
      RegisterTableRequest request);

  void reportMetrics(OrgContext context, TableIdentifier identifier, ReportMetricsRequest request);

  LoadCredentialsResponse credentials(OrgContext context, TableIdentifier identifier);

  /**
   * Signs a storage request an engine will make for the table (remote signing), if it stays
   * inside the table and the caller may do what it does; otherwise a 403.
   */
  RemoteSignResponse sign(OrgContext context, TableIdentifier identifier,
      RemoteSignRequest request);
}
