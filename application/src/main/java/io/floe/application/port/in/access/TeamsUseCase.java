package io.floe.application.port.in.access;

import io.floe.application.model.PrincipalDetails;
import io.floe.application.security.OrgContext;
import java.util.List;
import java.util.UUID;

/** The users of an org's teams: a grant to a team reaches each of them. */
public interface TeamsUseCase {
  void addTeamMember(OrgContext context, UUID teamId, UUID userId);

  void removeTeamMember(OrgContext context, UUID teamId, UUID userId);

  List<PrincipalDetails> teamMembers(OrgContext context, UUID teamId);
}
