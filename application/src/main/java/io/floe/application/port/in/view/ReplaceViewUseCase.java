package io.floe.application.port.in.view;

import io.floe.application.security.OrgContext;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.rest.requests.UpdateTableRequest;
import org.apache.iceberg.rest.responses.LoadViewResponse;

/** Replaces a view's definition: requirements checked, updates applied, pointer swapped. */
public interface ReplaceViewUseCase {
  LoadViewResponse replaceView(OrgContext context, TableIdentifier identifier,
      UpdateTableRequest request);
}
