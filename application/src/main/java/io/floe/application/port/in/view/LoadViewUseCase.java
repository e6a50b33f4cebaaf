package io.floe.application.port.in.view;

import io.floe.application.security.OrgContext;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.rest.responses.LoadViewResponse;

/** Loads a view's current metadata. */
public interface LoadViewUseCase {
  LoadViewResponse loadView(OrgContext context, TableIdentifier identifier);
}
