package io.floe.application.service.access;

import io.floe.application.model.Invalid;
import io.floe.application.model.PrincipalDetails;
import io.floe.application.port.in.access.TeamsUseCase;
import io.floe.application.port.out.IdentityDirectory;
import io.floe.application.security.AccessPolicy;
import io.floe.application.security.OrgContext;
import io.floe.domain.Principal;
import java.util.List;
import java.util.UUID;
import org.apache.iceberg.exceptions.NotFoundException;

/** Puts users into the org's teams and takes them out; only users can be team members. */
public final class TeamService implements TeamsUseCase {
  private final IdentityDirectory directory;
  private final OrgMembers members;
  private final AccessPolicy policy;

  public TeamService(IdentityDirectory directory, OrgMembers members, AccessPolicy policy) {
    this.directory = directory;
    this.members = members;
    this.policy = policy;
  }

  @Override
  public void addTeamMember(OrgContext context, UUID teamId, UUID userId) {
    policy.requireAdmin(context, "change teams");
    members.team(context, teamId);
    if (members.member(context, userId).principal().kind() != Principal.Kind.USER) {
      throw Invalid.because("only users can be members of a team");
    }
    directory.addTeamMember(teamId, userId);
  }

  @Override
  public void removeTeamMember(OrgContext context, UUID teamId, UUID userId) {
    policy.requireAdmin(context, "change teams");
    members.team(context, teamId);
    if (!directory.removeTeamMember(teamId, userId)) {
      throw new NotFoundException("Not a member of that team: %s", userId);
    }
  }

  @Override
  public List<PrincipalDetails> teamMembers(OrgContext context, UUID teamId) {
    members.team(context, teamId);
    return directory.teamMembers(context.org().id(), teamId);
  }
}
