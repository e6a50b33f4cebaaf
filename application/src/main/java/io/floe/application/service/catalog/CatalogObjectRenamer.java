package io.floe.application.service.catalog;

import io.floe.application.iceberg.FlatIdentifiers;
import io.floe.application.model.AuditAction;
import io.floe.application.model.AuditedChange;
import io.floe.application.port.out.CatalogObjectStore;
import io.floe.application.security.AccessPolicy;
import io.floe.application.security.OrgContext;
import io.floe.application.service.change.ChangePublisher;
import io.floe.domain.Action;
import io.floe.domain.CatalogObject;
import io.floe.domain.Namespace;
import io.floe.domain.TableName;
import java.time.Clock;
import java.util.Locale;
import java.util.Optional;
import java.util.function.Supplier;
import org.apache.iceberg.exceptions.AlreadyExistsException;
import org.apache.iceberg.exceptions.NoSuchTableException;
import org.apache.iceberg.exceptions.NoSuchViewException;
import org.apache.iceberg.rest.requests.RenameTableRequest;

/**
 * Renames a table or view, possibly into another namespace of the same org. Its files stay where
 * they are: only the catalog entry moves, so the namespace cleanup keeps the files of live objects
 * that were renamed away.
 */
public final class CatalogObjectRenamer {
  private final CatalogLocator locator;
  private final CatalogObjectStore objects;
  private final ChangePublisher publisher;
  private final Clock clock;
  private final AccessPolicy policy;

  public CatalogObjectRenamer(CatalogLocator locator, CatalogObjectStore objects,
      ChangePublisher publisher, Clock clock, AccessPolicy policy) {
    this.locator = locator;
    this.objects = objects;
    this.publisher = publisher;
    this.clock = clock;
    this.policy = policy;
  }

  /**
   * Moves the object {@code lookup} finds by the request's source, with the lookup of its kind.
   * A request repeated with its idempotency key after it moved the object succeeds again.
   */
  public void rename(OrgContext context, RenameTableRequest request,
      Supplier<ResolvedObject> lookup) {
    ResolvedObject source;
    try {
      source = lookup.get();
    } catch (NoSuchTableException | NoSuchViewException e) {
      if (publisher.replay(context, Void.class).isPresent()) {
        return;
      }
      throw e;
    }
    policy.require(context, Action.WRITE, source.namespace(), source.object());
    CatalogObject.Kind kind = source.object().kind();
    Namespace target = locator.catalogNamespace(context, request.destination().namespace(),
        "rename a " + kind.name().toLowerCase(Locale.ROOT) + " into it");
    policy.require(context, Action.WRITE, target);
    if (publisher.replay(context, Void.class).isPresent()) {
      return;
    }
    TableName newName = FlatIdentifiers.tableName(request.destination());
    AuditedChange change = CatalogChanges.of(kind == CatalogObject.Kind.VIEW
            ? AuditAction.VIEW_RENAME : AuditAction.TABLE_RENAME, kind, request.source())
        .with("to", request.destination().toString());
    publisher.publish(context, change, () -> {
      Optional<ResolvedObject> taken = locator.find(context, request.destination());
      taken.ifPresent(existing -> {
        throw new AlreadyExistsException("Cannot rename %s to %s. %s already exists",
            request.source(), request.destination(),
            CatalogEntries.kindName(existing.object().kind()));
      });
      objects.rename(source.object().id(), target.id(), newName, clock.instant());
    });
  }
}
