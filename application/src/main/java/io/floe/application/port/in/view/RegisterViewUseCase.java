package io.floe.application.port.in.view;

import io.floe.application.security.OrgContext;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.rest.requests.RegisterViewRequest;
import org.apache.iceberg.rest.responses.LoadViewResponse;

/** Adopts an existing view metadata file that lies inside the namespace's prefix. */
public interface RegisterViewUseCase {
  LoadViewResponse registerView(OrgContext context, Namespace namespace,
      RegisterViewRequest request);
}
