package io.floe.application.security;

import io.floe.application.model.RequestInfo;
import io.floe.domain.Membership;
import io.floe.domain.Org;
import io.floe.domain.Principal;
import io.floe.domain.Role;
import java.util.Optional;
import java.util.UUID;

/**
 * Who the maintenance scheduler acts as when it maintains a table by itself: a system principal
 * of its own, no user's token, recorded in the audit log under its own id and name. It acts as an
 * admin of the org whose table it maintains, and only there; no API token authenticates as it,
 * only a Spark job's token ({@link MaintenanceJobTokens}), limited to the job's one table.
 * The id is the same in every org (the version nibble 0 is never one a random id has), so that the
 * scheduler can tell its own commits in any org's change feed from a client's.
 */
public final class MaintenanceSchedulerIdentity {
  public static final Principal PRINCIPAL = new Principal(
      UUID.fromString("00000000-0000-0000-0000-00000000f10e"), Principal.Kind.API_CLIENT,
      "floe-maintenance-scheduler");

  private MaintenanceSchedulerIdentity() {}

  /** The scheduler inside {@code org}, running job {@code jobId}. */
  public static OrgContext in(Org org, long jobId) {
    return new OrgContext(new Caller(PRINCIPAL), org,
        new Membership(org.id(), PRINCIPAL.id(), Role.ADMIN),
        new RequestInfo("maintenance-job-" + jobId, Optional.empty()));
  }

  /** Whether a change was made by the scheduler. */
  public static boolean madeIt(UUID principalId) {
    return PRINCIPAL.id().equals(principalId);
  }
}
