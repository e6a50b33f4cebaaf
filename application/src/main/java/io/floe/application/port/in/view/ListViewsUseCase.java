package io.floe.application.port.in.view;

import io.floe.application.security.OrgContext;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.rest.responses.ListTablesResponse;

/** One page of the views of a namespace that the caller may see. */
public interface ListViewsUseCase {
  ListTablesResponse listViews(OrgContext context, Namespace namespace, String pageToken,
      Integer pageSize);
}
