package io.floe.application.port.in.namespace;

import io.floe.application.security.OrgContext;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.rest.requests.CreateNamespaceRequest;
import org.apache.iceberg.rest.requests.UpdateNamespacePropertiesRequest;
import org.apache.iceberg.rest.responses.CreateNamespaceResponse;
import org.apache.iceberg.rest.responses.GetNamespaceResponse;
import org.apache.iceberg.rest.responses.ListNamespacesResponse;
import org.apache.iceberg.rest.responses.UpdateNamespacePropertiesResponse;

/** Namespaces as engines see them through the Iceberg REST protocol. */
public interface IcebergNamespacesUseCase {
  /** The namespace property that binds a new namespace to a bucket configuration by nickname. */
  String BUCKET_PROPERTY = "floe.bucket";

  ListNamespacesResponse list(OrgContext context, Namespace parent, String pageToken,
      Integer pageSize);

  CreateNamespaceResponse create(OrgContext context, CreateNamespaceRequest request);

  GetNamespaceResponse load(OrgContext context, Namespace namespace);

  UpdateNamespacePropertiesResponse updateProperties(OrgContext context, Namespace namespace,
      UpdateNamespacePropertiesRequest request);

  /** Soft-deletes an empty namespace; a namespace holding tables or views is a 409. */
  void drop(OrgContext context, Namespace namespace);
}
