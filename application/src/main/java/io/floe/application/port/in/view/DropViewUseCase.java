package io.floe.application.port.in.view;

import io.floe.application.security.OrgContext;
import org.apache.iceberg.catalog.TableIdentifier;

/** Removes a view from the catalog; its files stay. */
public interface DropViewUseCase {
  void dropView(OrgContext context, TableIdentifier identifier);
}
