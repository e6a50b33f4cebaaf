package io.floe.application.port.in.view;

import io.floe.application.security.OrgContext;
import org.apache.iceberg.rest.requests.RenameTableRequest;

/** Renames a view, possibly into another namespace of the org; its files stay where they are. */
public interface RenameViewUseCase {
  void renameView(OrgContext context, RenameTableRequest request);
}
