package io.floe.application.port.in.access;

import io.floe.application.model.CreatePrincipalCommand;
import io.floe.application.model.PrincipalDetails;
import io.floe.application.security.OrgContext;
import io.floe.domain.Principal;
import io.floe.domain.Role;
import java.util.List;
import java.util.Optional;
import java.util.UUID;

/** An org's users, API clients and teams, and their roles. Changes need an org admin. */
public interface MembersUseCase {
  PrincipalDetails createPrincipal(OrgContext context, CreatePrincipalCommand command);

  /** The org's members, optionally of one kind. */
  List<PrincipalDetails> members(OrgContext context, Optional<Principal.Kind> kind);

  PrincipalDetails setRole(OrgContext context, UUID principalId, Role role);

  /** Removes a principal from the org, with its grants here; its tokens stop working here. */
  void removeMember(OrgContext context, UUID principalId);
}
