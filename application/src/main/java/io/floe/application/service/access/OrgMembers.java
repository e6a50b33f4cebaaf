package io.floe.application.service.access;

import io.floe.application.model.PrincipalDetails;
import io.floe.application.port.out.IdentityDirectory;
import io.floe.application.security.OrgContext;
import io.floe.domain.Principal;
import java.util.UUID;
import org.apache.iceberg.exceptions.ForbiddenException;
import org.apache.iceberg.exceptions.NotFoundException;

/**
 * Finds the members an access change is about. Principals are managed by the admins of the org
 * they were created in: an admin elsewhere cannot mint tokens or change teams that would work
 * here.
 */
public final class OrgMembers {
  private final IdentityDirectory directory;

  public OrgMembers(IdentityDirectory directory) {
    this.directory = directory;
  }

  /** A member of the caller's org. */
  public PrincipalDetails member(OrgContext context, UUID principalId) {
    return directory.member(context.org().id(), principalId)
        .orElseThrow(() -> new NotFoundException("No such member of this org: %s", principalId));
  }

  /** A member created in the caller's org: only then do this org's admins manage it. */
  public PrincipalDetails managed(OrgContext context, UUID principalId) {
    PrincipalDetails member = member(context, principalId);
    if (!directory.isHomedIn(principalId, context.org().id())) {
      throw new NotFoundException("No such member of this org: %s", principalId);
    }
    return member;
  }

  /** A team created in the caller's org. */
  public PrincipalDetails team(OrgContext context, UUID teamId) {
    PrincipalDetails team = managed(context, teamId);
    if (team.principal().kind() != Principal.Kind.TEAM) {
      throw new NotFoundException("No such team: %s", teamId);
    }
    return team;
  }

  /** Refuses a change of the caller's own membership: an org must not lose its last admin. */
  public static void requireNotSelf(OrgContext context, UUID principalId, String what) {
    if (context.caller().principal().id().equals(principalId)) {
      // Another admin can do it; nobody locks themselves out by accident.
      throw new ForbiddenException("You cannot %s", what);
    }
  }
}
