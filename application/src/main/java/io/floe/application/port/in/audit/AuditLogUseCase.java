package io.floe.application.port.in.audit;

import io.floe.application.model.AuditPage;
import io.floe.application.model.AuditQuery;
import io.floe.application.security.OrgContext;

/** Reading an org's audit log: who changed what, and when. */
public interface AuditLogUseCase {
  /** A page of the log, newest first; admins only. */
  AuditPage list(OrgContext context, AuditQuery query);
}
