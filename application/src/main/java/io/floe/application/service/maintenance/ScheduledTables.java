package io.floe.application.service.maintenance;

import io.floe.application.security.OrgContext;
import io.floe.application.service.catalog.CatalogLocator;
import io.floe.application.service.catalog.ResolvedObject;
import io.floe.application.service.catalog.ResolvedTable;
import java.util.Optional;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.exceptions.NoSuchNamespaceException;
import org.apache.iceberg.exceptions.NoSuchTableException;

/**
 * The scheduler's view of a table it planned for: the catalog's own table, or nothing. Planning
 * and running both ask, because a table may be dropped, or declared by a repo, between the two;
 * either way the scheduler forgets it rather than failing.
 */
final class ScheduledTables {
  private ScheduledTables() {}

  /** The catalog's table {@code namespace.name}, unless it is gone or a repo declares it. */
  static Optional<ResolvedObject> resolve(CatalogLocator locator, OrgContext context,
      String namespace, String name) {
    try {
      ResolvedTable table = locator.table(context, TableIdentifier.of(Namespace.of(namespace),
          name));
      return table instanceof ResolvedObject object ? Optional.of(object) : Optional.empty();
    } catch (NoSuchTableException | NoSuchNamespaceException e) {
      return Optional.empty();
    }
  }
}
