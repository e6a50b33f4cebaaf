package io.floe.application.service.namespace;

import io.floe.application.model.AuditAction;
import io.floe.application.model.AuditTarget;
import io.floe.application.model.AuditedChange;
import io.floe.application.model.DeleteCommand;
import io.floe.application.port.out.NamespaceLifecycleStore;
import io.floe.application.port.out.NamespaceStore;
import io.floe.application.port.out.SoftDeleteStore;
import io.floe.application.port.out.UnitOfWork;
import io.floe.application.security.AccessPolicy;
import io.floe.application.security.OrgContext;
import io.floe.application.service.change.ChangePublisher;
import io.floe.application.service.lifecycle.SoftDeletion;
import io.floe.domain.Action;
import io.floe.domain.CatalogName;
import io.floe.domain.Namespace;
import java.time.Clock;
import java.util.Optional;
import org.apache.iceberg.exceptions.NamespaceNotEmptyException;
import org.apache.iceberg.exceptions.NoSuchNamespaceException;

/**
 * Deleting and restoring namespaces. A delete never touches storage: it marks the namespace and
 * leaves the bytes to the cleanup pass, which runs once the recovery period has passed.
 */
public final class NamespaceDeletion {
  private final NamespaceStore namespaces;
  private final NamespaceLifecycleStore lifecycle;
  private final SoftDeleteStore<Namespace> softDeletes;
  private final SoftDeletion deletion;
  private final UnitOfWork unitOfWork;
  private final Clock clock;
  private final AccessPolicy policy;
  private final ChangePublisher publisher;

  public NamespaceDeletion(NamespaceStore namespaces, NamespaceLifecycleStore lifecycle,
      SoftDeleteStore<Namespace> softDeletes, SoftDeletion deletion, UnitOfWork unitOfWork,
      Clock clock, AccessPolicy policy, ChangePublisher publisher) {
    this.namespaces = namespaces;
    this.lifecycle = lifecycle;
    this.softDeletes = softDeletes;
    this.deletion = deletion;
    this.unitOfWork = unitOfWork;
    this.clock = clock;
    this.policy = policy;
    this.publisher = publisher;
  }

  public void delete(OrgContext context, CatalogName name, DeleteCommand command) {
    unitOfWork.inTransaction(() -> {
      // The row lock makes a concurrent delete or restore of the same namespace wait.
      Optional<Namespace> live = lifecycle.lockLive(context.org().id(), name)
          .filter(namespace -> policy.canSee(context, namespace));
      if (live.isEmpty() && publisher.replay(context, Void.class).isPresent()) {
        return; // this caller deleted it with this very request before
      }
      Namespace found = live.orElseThrow(
          () -> new NoSuchNamespaceException("Namespace does not exist: %s", name));
      policy.require(context, Action.MANAGE, found);
      if (publisher.replay(context, Void.class).isPresent()) {
        return;
      }
      publisher.publish(context, AuditedChange.of(AuditAction.NAMESPACE_DELETE,
              AuditTarget.Kind.NAMESPACE, found.name())
          .with("immediate", command.immediate()).with("retain_data", command.retainData()),
          () -> markDeleted(context, found, command));
    });
  }

  private void markDeleted(OrgContext context, Namespace found, DeleteCommand command) {
    if (namespaces.hasObjects(found.id())) {
      throw new NamespaceNotEmptyException(
          "Namespace %s is not empty: drop its tables and views first", found.name());
    }
    deletion.delete(softDeletes, context.org().id(), found.id(), found.name(), command);
  }

  public Namespace restore(OrgContext context, CatalogName name) {
    return unitOfWork.inTransaction(() -> {
      Namespace ghost = lifecycle.lockRestorable(context.org().id(), name, clock.instant())
          .filter(namespace -> policy.canSee(context, namespace))
          .orElseThrow(() -> new NoSuchNamespaceException(
              "No deleted namespace %s can be restored: it does not exist, its recovery period "
                  + "has passed, or it was deleted immediately", name));
      policy.require(context, Action.MANAGE, ghost);
      // The name is still held by this namespace, so no live namespace or repo can have it.
      return publisher.publishResultOf(context, AuditedChange.of(AuditAction.NAMESPACE_RESTORE,
          AuditTarget.Kind.NAMESPACE, ghost.name()),
          () -> lifecycle.restore(ghost.id(), clock.instant()));
    });
  }
}
