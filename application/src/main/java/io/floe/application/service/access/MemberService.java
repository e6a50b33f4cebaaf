package io.floe.application.service.access;

import io.floe.application.model.AuditAction;
import io.floe.application.model.CreatePrincipalCommand;
import io.floe.application.model.Invalid;
import io.floe.application.model.PrincipalDetails;
import io.floe.application.port.in.access.MembersUseCase;
import io.floe.application.port.out.IdGenerator;
import io.floe.application.port.out.IdentityDirectory;
import io.floe.application.security.AccessPolicy;
import io.floe.application.security.OrgContext;
import io.floe.application.service.change.ChangePublisher;
import io.floe.domain.Principal;
import io.floe.domain.Role;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import org.apache.iceberg.exceptions.AlreadyExistsException;

/** Adds principals to an org, lists them, changes their roles and removes them. */
public final class MemberService implements MembersUseCase {
  private final IdentityDirectory directory;
  private final OrgMembers members;
  private final AccessPolicy policy;
  private final ChangePublisher publisher;
  private final IdGenerator ids;

  public MemberService(IdentityDirectory directory, OrgMembers members, AccessPolicy policy,
      ChangePublisher publisher, IdGenerator ids) {
    this.directory = directory;
    this.members = members;
    this.policy = policy;
    this.publisher = publisher;
    this.ids = ids;
  }

  @Override
  public PrincipalDetails createPrincipal(OrgContext context, CreatePrincipalCommand command) {
    policy.requireAdmin(context, "add principals");
    Principal principal = new Principal(ids.newId(), command.kind(), command.name());
    publisher.publish(context, AccessChanges.of(AuditAction.PRINCIPAL_CREATE, principal)
        .with("role", command.role()), () -> {
      // An external id is the org's own: another org's users are neither shown nor consulted.
      command.externalId().filter(externalId -> directory.usersByExternalId(externalId).stream()
          .anyMatch(user -> directory.isHomedIn(user.id(), context.org().id())))
          .ifPresent(taken -> {
            throw new AlreadyExistsException("Another user of this org already has that "
                + "external_id");
          });
      directory.createMember(principal, context.org().id(), command.role(),
          command.externalId());
    });
    return new PrincipalDetails(principal, command.role(), command.externalId());
  }

  @Override
  public List<PrincipalDetails> members(OrgContext context, Optional<Principal.Kind> kind) {
    // Members see each other, so that whoever manages a namespace can find whom to grant to.
    return directory.members(context.org().id(), kind);
  }

  @Override
  public PrincipalDetails setRole(OrgContext context, UUID principalId, Role role) {
    policy.requireAdmin(context, "change roles");
    PrincipalDetails member = members.member(context, principalId);
    if (member.principal().kind() == Principal.Kind.TEAM && role != Role.MEMBER) {
      throw Invalid.because("a team's role is always MEMBER; make its users admins instead");
    }
    OrgMembers.requireNotSelf(context, principalId, "change your own role");
    publisher.publish(context, AccessChanges.of(AuditAction.MEMBER_SET_ROLE, member.principal())
        .with("role", role), () -> directory.setRole(context.org().id(), principalId, role));
    return members.member(context, principalId);
  }

  @Override
  public void removeMember(OrgContext context, UUID principalId) {
    policy.requireAdmin(context, "remove members");
    PrincipalDetails member = members.member(context, principalId);
    OrgMembers.requireNotSelf(context, principalId, "remove yourself");
    publisher.publish(context, AccessChanges.of(AuditAction.MEMBER_REMOVE, member.principal()),
        () -> directory.removeMember(context.org().id(), principalId));
  }
}
