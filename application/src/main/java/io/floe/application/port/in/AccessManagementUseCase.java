package io.floe.application.port.in;

import io.floe.application.model.CreatePrincipalCommand;
import io.floe.application.model.GrantCommand;
import io.floe.application.model.GrantDetails;
import io.floe.application.model.IssueTokenCommand;
import io.floe.application.model.IssuedToken;
import io.floe.application.model.PrincipalDetails;
import io.floe.application.model.TokenDetails;
import io.floe.application.security.OrgContext;
import io.floe.domain.CatalogName;
import io.floe.domain.Principal;
import io.floe.domain.Role;
import java.util.List;
import java.util.Optional;
import java.util.UUID;

/**
 * Identity and access in one org: its users, API clients and teams, their roles, API tokens and
 * grants. Org admins may do all of it; whoever may manage a namespace may grant on it.
 */
public interface AccessManagementUseCase {
  PrincipalDetails createPrincipal(OrgContext context, CreatePrincipalCommand command);

  /** The org's members, optionally of one kind. */
  List<PrincipalDetails> members(OrgContext context, Optional<Principal.Kind> kind);

  PrincipalDetails setRole(OrgContext context, UUID principalId, Role role);

  /** Removes a principal from the org, with its grants here; its tokens stop working here. */
  void removeMember(OrgContext context, UUID principalId);

  void addTeamMember(OrgContext context, UUID teamId, UUID userId);

  void removeTeamMember(OrgContext context, UUID teamId, UUID userId);

  List<PrincipalDetails> teamMembers(OrgContext context, UUID teamId);

  IssuedToken issueToken(OrgContext context, IssueTokenCommand command);

  /** Tokens of the org's own principals, optionally of one of them. */
  List<TokenDetails> tokens(OrgContext context, Optional<UUID> principalId);

  TokenDetails revokeToken(OrgContext context, UUID tokenId);

  GrantDetails grant(OrgContext context, GrantCommand command);

  /** Grants on namespaces the caller may manage, optionally on one namespace or to one principal. */
  List<GrantDetails> grants(OrgContext context, Optional<CatalogName> namespace,
      Optional<UUID> principalId);

  void revokeGrant(OrgContext context, UUID grantId);
}
