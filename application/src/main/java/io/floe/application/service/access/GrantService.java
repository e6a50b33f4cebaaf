package io.floe.application.service.access;

import io.floe.application.model.AuditAction;
import io.floe.application.model.GrantCommand;
import io.floe.application.model.GrantDetails;
import io.floe.application.port.in.access.GrantsUseCase;
import io.floe.application.port.out.CatalogObjectStore;
import io.floe.application.port.out.GrantStore;
import io.floe.application.port.out.IdGenerator;
import io.floe.application.port.out.NamespaceStore;
import io.floe.application.security.AccessPolicy;
import io.floe.application.security.OrgContext;
import io.floe.application.service.change.ChangePublisher;
import io.floe.domain.Action;
import io.floe.domain.CatalogName;
import io.floe.domain.CatalogObject;
import io.floe.domain.Grant;
import io.floe.domain.Namespace;
import java.time.Clock;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import org.apache.iceberg.exceptions.NoSuchNamespaceException;
import org.apache.iceberg.exceptions.NoSuchTableException;
import org.apache.iceberg.exceptions.NotFoundException;

/**
 * Grants on a namespace or one table of it, to a member of the org. Whoever may manage the
 * namespace may grant on it and revoke; everyone sees the grants made to them.
 */
public final class GrantService implements GrantsUseCase {
  private final GrantStore grants;
  private final NamespaceStore namespaces;
  private final CatalogObjectStore objects;
  private final OrgMembers members;
  private final AccessPolicy policy;
  private final IdGenerator ids;
  private final Clock clock;
  private final ChangePublisher publisher;

  public GrantService(GrantStore grants, NamespaceStore namespaces, CatalogObjectStore objects,
      OrgMembers members, AccessPolicy policy, IdGenerator ids, Clock clock,
      ChangePublisher publisher) {
    this.grants = grants;
    this.namespaces = namespaces;
    this.objects = objects;
    this.members = members;
    this.policy = policy;
    this.ids = ids;
    this.clock = clock;
    this.publisher = publisher;
  }

  @Override
  public GrantDetails grant(OrgContext context, GrantCommand command) {
    Namespace namespace = visibleNamespace(context, command.namespace());
    policy.require(context, Action.MANAGE, namespace);
    members.member(context, command.principalId());
    Optional<UUID> tableId = command.table().map(name -> objects
        .find(context.org().id(), namespace.name(), name)
        .map(CatalogObject::id)
        .orElseThrow(() -> new NoSuchTableException("Table does not exist: %s.%s",
            namespace.name(), name)));
    Grant grant = new Grant(command.principalId(), namespace.id(), tableId, command.action());
    GrantStore.Entry entry = new GrantStore.Entry(ids.newId(), context.org().id(), grant,
        clock.instant());
    return details(publisher.publishResultOf(context, () -> grants.save(entry),
        saved -> AccessChanges.of(AuditAction.GRANT_CREATE, saved)));
  }

  @Override
  public List<GrantDetails> grants(OrgContext context, Optional<CatalogName> namespace,
      Optional<UUID> principalId) {
    if (namespace.isPresent()) {
      Namespace found = visibleNamespace(context, namespace.get());
      policy.require(context, Action.MANAGE, found);
      return grants.list(context.org().id(), Optional.of(found.id()), principalId).stream()
          .map(GrantService::details).toList();
    }
    UUID caller = context.caller().principal().id();
    // Everyone sees the grants made to them; the others only where they may manage them.
    return grants.list(context.org().id(), Optional.empty(), principalId).stream()
        .filter(named -> context.isAdmin() || named.entry().grant().principalId().equals(caller)
            || mayManage(context, named))
        .map(GrantService::details).toList();
  }

  @Override
  public void revokeGrant(OrgContext context, UUID grantId) {
    GrantStore.Named named = grants.find(context.org().id(), grantId)
        .filter(found -> context.isAdmin() || mayManage(context, found))
        .orElseThrow(() -> new NotFoundException("No such grant: %s", grantId));
    publisher.publish(context, AccessChanges.of(AuditAction.GRANT_REVOKE, named), () -> {
      if (!grants.delete(named.entry().id())) {
        throw new NotFoundException("No such grant: %s", grantId);
      }
    });
  }

  private boolean mayManage(OrgContext context, GrantStore.Named named) {
    return namespaces.findLive(context.org().id(), new CatalogName(named.namespaceName()))
        .filter(found -> policy.allows(context, Action.MANAGE, found))
        .isPresent();
  }

  private Namespace visibleNamespace(OrgContext context, CatalogName name) {
    return namespaces.findLive(context.org().id(), name)
        .filter(found -> policy.canSee(context, found))
        .orElseThrow(() -> new NoSuchNamespaceException("Namespace does not exist: %s", name));
  }

  private static GrantDetails details(GrantStore.Named named) {
    GrantStore.Entry entry = named.entry();
    return new GrantDetails(entry.id(), entry.grant().principalId(), named.principalName(),
        named.namespaceName(), named.tableName(), entry.grant().action(), entry.createdAt());
  }
}
