package io.floe.application.port.in;

import io.floe.application.security.OrgContext;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.rest.requests.CreateViewRequest;
import org.apache.iceberg.rest.requests.RegisterViewRequest;
import org.apache.iceberg.rest.requests.RenameTableRequest;
import org.apache.iceberg.rest.requests.UpdateTableRequest;
import org.apache.iceberg.rest.responses.ListTablesResponse;
import org.apache.iceberg.rest.responses.LoadViewResponse;

/** Views as engines see them through the Iceberg REST protocol. */
public interface IcebergViewsUseCase {
  ListTablesResponse list(OrgContext context, Namespace namespace, String pageToken,
      Integer pageSize);

  LoadViewResponse create(OrgContext context, Namespace namespace, CreateViewRequest request);

  LoadViewResponse load(OrgContext context, TableIdentifier identifier);

  /** Replaces the view's definition: requirements checked, updates applied, pointer swapped. */
  LoadViewResponse replace(OrgContext context, TableIdentifier identifier,
      UpdateTableRequest request);

  /** Adopts an existing view metadata file that lies inside the namespace's prefix. */
  LoadViewResponse register(OrgContext context, Namespace namespace, RegisterViewRequest request);

  void rename(OrgContext context, RenameTableRequest request);

  void drop(OrgContext context, TableIdentifier identifier);
}
