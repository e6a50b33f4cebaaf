package io.floe.application.port.in.table;

import io.floe.application.security.OrgContext;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.rest.requests.RegisterTableRequest;
import org.apache.iceberg.rest.responses.LoadTableResponse;

/** Adopts an existing table metadata file that lies inside the namespace's prefix. */
public interface RegisterTableUseCase {
  LoadTableResponse registerTable(OrgContext context, Namespace namespace,
      RegisterTableRequest request);
}
