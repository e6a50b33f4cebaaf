package io.floe.application.service.access;

import io.floe.application.model.AuditAction;
import io.floe.application.model.AuditedChange;
import io.floe.application.model.Invalid;
import io.floe.application.model.PrincipalDetails;
import io.floe.application.port.in.access.TeamsUseCase;
import io.floe.application.port.out.IdentityDirectory;
import io.floe.application.security.AccessPolicy;
import io.floe.application.security.OrgContext;
import io.floe.application.service.change.ChangePublisher;
import io.floe.domain.Principal;
import java.util.List;
import java.util.UUID;
import org.apache.iceberg.exceptions.NotFoundException;

/** Puts users into the org's teams and takes them out; only users can be team members. */
public final class TeamService implements TeamsUseCase {
  private final IdentityDirectory directory;
  private final OrgMembers members;
  private final AccessPolicy policy;
  private final ChangePublisher publisher;

  public TeamService(IdentityDirectory directory, OrgMembers members, AccessPolicy policy,
      ChangePublisher publisher) {
    this.directory = directory;
    this.members = members;
    this.policy = policy;
    this.publisher = publisher;
  }

  @Override
  public void addTeamMember(OrgContext context, UUID teamId, UUID userId) {
    policy.requireAdmin(context, "change teams");
    PrincipalDetails team = members.team(context, teamId);
    Principal user = members.member(context, userId).principal();
    if (user.kind() != Principal.Kind.USER) {
      throw Invalid.because("only users can be members of a team");
    }
    publisher.publish(context, teamChange(AuditAction.TEAM_ADD_MEMBER, team, user.id())
        .with("user_name", user.name()), () -> directory.addTeamMember(teamId, userId));
  }

  @Override
  public void removeTeamMember(OrgContext context, UUID teamId, UUID userId) {
    policy.requireAdmin(context, "change teams");
    PrincipalDetails team = members.team(context, teamId);
    publisher.publish(context, teamChange(AuditAction.TEAM_REMOVE_MEMBER, team, userId), () -> {
      if (!directory.removeTeamMember(teamId, userId)) {
        throw new NotFoundException("Not a member of that team: %s", userId);
      }
    });
  }

  private static AuditedChange teamChange(AuditAction action, PrincipalDetails team,
      UUID userId) {
    return AccessChanges.of(action, team.principal()).with("user_id", userId);
  }

  @Override
  public List<PrincipalDetails> teamMembers(OrgContext context, UUID teamId) {
    members.team(context, teamId);
    return directory.teamMembers(context.org().id(), teamId);
  }
}
