package io.floe.application.port.in.namespace;

import io.floe.application.model.CreateNamespaceCommand;
import io.floe.application.model.DeleteCommand;
import io.floe.application.model.ModifyNamespaceCommand;
import io.floe.application.model.NamespaceDetails;
import io.floe.application.model.NamespaceQuery;
import io.floe.application.model.Page;
import io.floe.application.model.TableQuery;
import io.floe.application.model.TableSummary;
import io.floe.application.security.OrgContext;
import io.floe.domain.CatalogName;
import java.util.List;

/** Namespaces as people manage them: descriptions, metadata, visibility, lifecycle, listings. */
public interface NamespaceManagementUseCase {
  NamespaceDetails create(OrgContext context, CreateNamespaceCommand command);

  NamespaceDetails get(OrgContext context, CatalogName name);

  NamespaceDetails modify(OrgContext context, CatalogName name, ModifyNamespaceCommand command);

  /** Deletes an empty namespace (409 when it holds tables or views). */
  void delete(OrgContext context, CatalogName name, DeleteCommand command);

  /** Brings back a soft-deleted namespace whose recovery period has not passed. */
  NamespaceDetails restore(OrgContext context, CatalogName name);

  /** Every namespace the caller may see, with the restorable soft-deleted ones on request. */
  List<NamespaceDetails> list(OrgContext context, boolean includeGhosts);

  Page<NamespaceDetails> search(OrgContext context, NamespaceQuery query);

  Page<TableSummary> tables(OrgContext context, CatalogName namespace, TableQuery query);
}
