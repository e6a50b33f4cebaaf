package io.floe.application.port.in.table;

import io.floe.application.security.OrgContext;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.rest.responses.ListTablesResponse;

/** One page of the tables of a namespace that the caller may see. */
public interface ListTablesUseCase {
  ListTablesResponse listTables(OrgContext context, Namespace namespace, String pageToken,
      Integer pageSize);
}
