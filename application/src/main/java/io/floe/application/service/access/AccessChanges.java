package io.floe.application.service.access;

import io.floe.application.model.AuditAction;
import io.floe.application.model.AuditTarget;
import io.floe.application.model.AuditedChange;
import io.floe.application.port.out.GrantStore;
import io.floe.domain.Principal;

/**
 * How changes to identity and access are recorded in the audit log: a change to a principal (its
 * membership, teams or tokens) under the principal's name, a grant under what it is on.
 */
final class AccessChanges {
  private AccessChanges() {}

  static AuditedChange of(AuditAction action, Principal principal) {
    return AuditedChange.of(action, AuditTarget.Kind.PRINCIPAL, principal.name())
        .with("principal_id", principal.id())
        .with("principal_kind", principal.kind());
  }

  /** A grant, named by the namespace or {@code <namespace>.<table>} it is on. */
  static AuditedChange of(AuditAction action, GrantStore.Named grant) {
    AuditTarget target = grant.tableName()
        .map(table -> AuditTarget.of(AuditTarget.Kind.TABLE, grant.namespaceName() + "." + table))
        .orElseGet(() -> AuditTarget.of(AuditTarget.Kind.NAMESPACE, grant.namespaceName()));
    return AuditedChange.of(action, target)
        .with("grant_id", grant.entry().id())
        .with("principal_id", grant.entry().grant().principalId())
        .with("principal_name", grant.principalName())
        .with("action", grant.entry().grant().action());
  }
}
