package io.floe.application.port.out;

import io.floe.application.model.AuditPage;
import io.floe.application.model.AuditQuery;
import io.floe.application.model.AuditedChange;
import io.floe.domain.Principal;
import java.time.Instant;
import java.util.List;
import java.util.UUID;

/** Each org's record of the changes made in it: appended to, never changed. */
public interface AuditLog {
  /** Records changes {@code actor} made for one request. Joins the caller's transaction. */
  void append(UUID orgId, Instant recordedAt, Principal actor, String requestId,
      List<AuditedChange> changes);

  /** A page of the org's log, newest first. */
  AuditPage list(UUID orgId, AuditQuery query);
}
