package io.floe.application.port.in.table;

import io.floe.application.security.OrgContext;
import org.apache.iceberg.catalog.TableIdentifier;

/** Removes a table from the catalog. Never deletes files, even when purge is requested. */
public interface DropTableUseCase {
  void dropTable(OrgContext context, TableIdentifier identifier, boolean purgeRequested);
}
