package io.floe.application.service.table;

import io.floe.application.model.AuditAction;
import io.floe.application.port.in.table.DropTableUseCase;
import io.floe.application.port.out.CatalogObjectStore;
import io.floe.application.security.AccessPolicy;
import io.floe.application.security.OrgContext;
import io.floe.application.service.catalog.CatalogChanges;
import io.floe.application.service.catalog.CatalogLocator;
import io.floe.application.service.catalog.ResolvedObject;
import io.floe.application.service.change.ChangePublisher;
import io.floe.domain.Action;
import io.floe.domain.CatalogObject;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.exceptions.NoSuchTableException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Removes a table from the catalog. Its files are never deleted here, purge or not: they stay
 * until the namespace is cleaned up after its deletion. A repo's tables are never dropped.
 */
public final class DropTableService implements DropTableUseCase {
  private static final Logger LOG = LoggerFactory.getLogger(DropTableService.class);

  private final CatalogLocator locator;
  private final AccessPolicy policy;
  private final CatalogObjectStore objects;
  private final ChangePublisher publisher;

  public DropTableService(CatalogLocator locator, AccessPolicy policy, CatalogObjectStore objects,
      ChangePublisher publisher) {
    this.locator = locator;
    this.policy = policy;
    this.objects = objects;
    this.publisher = publisher;
  }

  @Override
  public void dropTable(OrgContext context, TableIdentifier identifier, boolean purgeRequested) {
    ResolvedObject table;
    try {
      table = locator.catalogTable(context, identifier, purgeRequested ? "purge" : "drop");
    } catch (NoSuchTableException e) {
      if (publisher.replay(context, Void.class).isPresent()) {
        return; // this caller dropped it with this very request before
      }
      throw e;
    }
    policy.require(context, Action.WRITE, table.namespace(), table.object());
    publisher.publish(context, CatalogChanges.of(AuditAction.TABLE_DROP,
        CatalogObject.Kind.TABLE, identifier).with("purge_requested", purgeRequested), () -> {
      if (!objects.delete(table.object().id())) {
        throw new NoSuchTableException("Table does not exist: %s", identifier);
      }
    });
    LOG.info("dropped table {} (purge requested: {}; files kept at {})", identifier,
        purgeRequested, table.rootUri());
  }
}
