package io.floe.application.service.view;

import io.floe.application.model.AuditAction;
import io.floe.application.port.in.view.DropViewUseCase;
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
import org.apache.iceberg.exceptions.NoSuchViewException;

/** Removes a view from the catalog; its files stay until the namespace is cleaned up. */
public final class DropViewService implements DropViewUseCase {
  private final CatalogLocator locator;
  private final AccessPolicy policy;
  private final CatalogObjectStore objects;
  private final ChangePublisher publisher;

  public DropViewService(CatalogLocator locator, AccessPolicy policy, CatalogObjectStore objects,
      ChangePublisher publisher) {
    this.locator = locator;
    this.policy = policy;
    this.objects = objects;
    this.publisher = publisher;
  }

  @Override
  public void dropView(OrgContext context, TableIdentifier identifier) {
    ResolvedObject view;
    try {
      view = locator.view(context, identifier);
    } catch (NoSuchViewException e) {
      if (publisher.replay(context, Void.class).isPresent()) {
        return; // this caller dropped it with this very request before
      }
      throw e;
    }
    policy.require(context, Action.WRITE, view.namespace(), view.object());
    publisher.publish(context, CatalogChanges.of(AuditAction.VIEW_DROP,
        CatalogObject.Kind.VIEW, identifier), () -> {
      if (!objects.delete(view.object().id())) {
        throw new NoSuchViewException("View does not exist: %s", identifier);
      }
    });
  }
}
