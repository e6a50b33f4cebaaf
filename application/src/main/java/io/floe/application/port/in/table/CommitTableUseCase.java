package io.floe.application.port.in.table;

import io.floe.application.security.OrgContext;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.rest.requests.UpdateTableRequest;
import org.apache.iceberg.rest.responses.LoadTableResponse;

/**
 * Commits a change to one table: requirements checked against its current metadata, updates
 * applied, the pointer moved atomically. The first commit of a staged create creates the table.
 */
public interface CommitTableUseCase {
  LoadTableResponse commitTable(OrgContext context, TableIdentifier identifier,
      UpdateTableRequest request);
}
