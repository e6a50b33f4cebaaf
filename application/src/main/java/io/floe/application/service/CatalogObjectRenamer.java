package io.floe.application.service;

import io.floe.application.iceberg.FlatIdentifiers;
import io.floe.application.port.out.CatalogObjectStore;
import io.floe.application.port.out.UnitOfWork;
import io.floe.application.security.AccessPolicy;
import io.floe.application.security.OrgContext;
import io.floe.domain.Action;
import io.floe.domain.Namespace;
import io.floe.domain.TableName;
import java.time.Clock;
import org.apache.iceberg.exceptions.AlreadyExistsException;
import org.apache.iceberg.rest.requests.RenameTableRequest;

/**
 * Renames a table or view, possibly into another namespace of the same org. Its files stay where
 * they are: only the catalog entry moves, so the namespace cleanup keeps the files of live objects
 * that were renamed away.
 */
final class CatalogObjectRenamer {
  private final CatalogLocator locator;
  private final CatalogObjectStore objects;
  private final UnitOfWork unitOfWork;
  private final Clock clock;
  private final AccessPolicy policy;

  CatalogObjectRenamer(CatalogLocator locator, CatalogObjectStore objects, UnitOfWork unitOfWork,
      Clock clock, AccessPolicy policy) {
    this.locator = locator;
    this.objects = objects;
    this.unitOfWork = unitOfWork;
    this.clock = clock;
    this.policy = policy;
  }

  /** Moves {@code source}, already found by the caller's kind-specific lookup. */
  void rename(OrgContext context, ResolvedObject source, RenameTableRequest request) {
    policy.require(context, Action.WRITE, source.namespace(), source.object());
    Namespace target = locator.namespace(context, request.destination().namespace());
    policy.require(context, Action.WRITE, target);
    TableName newName = FlatIdentifiers.tableName(request.destination());
    unitOfWork.inTransaction(() -> {
      locator.find(context, request.destination()).ifPresent(existing -> {
        throw new AlreadyExistsException("Cannot rename %s to %s. %s already exists",
            request.source(), request.destination(), TableService.kindName(existing));
      });
      objects.rename(source.object().id(), target.id(), newName, clock.instant());
    });
  }
}
