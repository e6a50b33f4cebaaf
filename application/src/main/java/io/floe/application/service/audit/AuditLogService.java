package io.floe.application.service.audit;

import io.floe.application.model.AuditPage;
import io.floe.application.model.AuditQuery;
import io.floe.application.port.in.audit.AuditLogUseCase;
import io.floe.application.port.out.AuditLog;
import io.floe.application.security.AccessPolicy;
import io.floe.application.security.OrgContext;

/** The org's audit log, for its admins: it names everyone's actions in every namespace. */
public final class AuditLogService implements AuditLogUseCase {
  private final AuditLog log;
  private final AccessPolicy policy;

  public AuditLogService(AuditLog log, AccessPolicy policy) {
    this.log = log;
    this.policy = policy;
  }

  @Override
  public AuditPage list(OrgContext context, AuditQuery query) {
    policy.requireAdmin(context, "read the audit log");
    return log.list(context.org().id(), query);
  }
}
