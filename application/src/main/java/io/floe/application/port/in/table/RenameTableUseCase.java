package io.floe.application.port.in.table;

import io.floe.application.security.OrgContext;
import org.apache.iceberg.rest.requests.RenameTableRequest;

/** Renames a table, possibly into another namespace of the org; its files stay where they are. */
public interface RenameTableUseCase {
  void renameTable(OrgContext context, RenameTableRequest request);
}
