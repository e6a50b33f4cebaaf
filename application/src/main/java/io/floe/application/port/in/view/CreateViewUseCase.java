package io.floe.application.port.in.view;

import io.floe.application.security.OrgContext;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.rest.requests.CreateViewRequest;
import org.apache.iceberg.rest.responses.LoadViewResponse;

/** Creates a view whose metadata lives in a directory the server chooses. */
public interface CreateViewUseCase {
  LoadViewResponse createView(OrgContext context, Namespace namespace, CreateViewRequest request);
}
