package io.floe.application.port.out;

import io.floe.application.model.PrincipalDetails;
import io.floe.application.model.TokenDetails;
import io.floe.domain.ApiToken;
import io.floe.domain.Principal;
import io.floe.domain.Role;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.UUID;

/** Who is in an org and with which tokens: what the management of identities reads and writes. */
public interface IdentityDirectory extends ExternalIdentities {
  /**
   * Creates the principal in its home org, whose admins manage it, and makes it a member.
   * Refused with an exception when a principal of that org already has {@code externalId}.
   */
  void createMember(Principal principal, UUID homeOrgId, Role role, Optional<String> externalId);

  /** Whether the principal was created in that org (and so is managed by its admins). */
  boolean isHomedIn(UUID principalId, UUID orgId);

  List<PrincipalDetails> members(UUID orgId, Optional<Principal.Kind> kind);

  Optional<PrincipalDetails> member(UUID orgId, UUID principalId);

  void setRole(UUID orgId, UUID principalId, Role role);

  /** Ends the membership and deletes the principal's grants in that org. */
  void removeMember(UUID orgId, UUID principalId);

  /** False when the user already was a member of the team. */
  boolean addTeamMember(UUID teamId, UUID userId);

  boolean removeTeamMember(UUID teamId, UUID userId);

  List<PrincipalDetails> teamMembers(UUID orgId, UUID teamId);

  void insertToken(ApiToken token, Optional<String> description);

  /** Tokens of principals homed in the org, optionally of one principal, newest first. */
  List<TokenDetails> tokens(UUID orgId, Optional<UUID> principalId);

  Optional<TokenDetails> token(UUID orgId, UUID tokenId);

  /** Revokes the token unless it already was; the first revocation time stays. */
  void revokeToken(UUID tokenId, Instant now);
}
