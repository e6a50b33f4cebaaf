package io.floe.application.service;

import io.floe.application.port.in.AccessManagementUseCase;
import io.floe.application.model.CreatePrincipalCommand;
import io.floe.application.model.GrantCommand;
import io.floe.application.model.GrantDetails;
import io.floe.application.model.Invalid;
import io.floe.application.model.IssueTokenCommand;
import io.floe.application.model.IssuedToken;
import io.floe.application.model.PrincipalDetails;
import io.floe.application.model.TokenDetails;
import io.floe.application.port.out.CatalogObjectStore;
import io.floe.application.port.out.GrantStore;
import io.floe.application.port.out.IdGenerator;
import io.floe.application.port.out.IdentityDirectory;
import io.floe.application.port.out.NamespaceStore;
import io.floe.application.port.out.UnitOfWork;
import io.floe.application.security.AccessPolicy;
import io.floe.application.security.OrgContext;
import io.floe.domain.Action;
import io.floe.domain.ApiToken;
import io.floe.domain.CatalogName;
import io.floe.domain.CatalogObject;
import io.floe.domain.Grant;
import io.floe.domain.Namespace;
import io.floe.domain.Principal;
import io.floe.domain.Role;
import java.time.Clock;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import org.apache.iceberg.exceptions.AlreadyExistsException;
import org.apache.iceberg.exceptions.NoSuchNamespaceException;
import org.apache.iceberg.exceptions.NoSuchTableException;
import org.apache.iceberg.exceptions.NotFoundException;

/**
 * Users, API clients, teams, roles, tokens and grants of one org. Principals are managed by the
 * admins of the org they were created in: an admin elsewhere cannot mint tokens that would work
 * here.
 */
public final class AccessManagementService implements AccessManagementUseCase {
  private static final int TOKEN_BYTES = 32;

  private final IdentityDirectory directory;
  private final GrantStore grants;
  private final NamespaceStore namespaces;
  private final CatalogObjectStore objects;
  private final AccessPolicy policy;
  private final UnitOfWork unitOfWork;
  private final IdGenerator ids;
  private final Clock clock;

  public AccessManagementService(IdentityDirectory directory, GrantStore grants,
      NamespaceStore namespaces, CatalogObjectStore objects, AccessPolicy policy,
      UnitOfWork unitOfWork, IdGenerator ids, Clock clock) {
    this.directory = directory;
    this.grants = grants;
    this.namespaces = namespaces;
    this.objects = objects;
    this.policy = policy;
    this.unitOfWork = unitOfWork;
    this.ids = ids;
    this.clock = clock;
  }

  @Override
  public PrincipalDetails createPrincipal(OrgContext context, CreatePrincipalCommand command) {
    policy.requireAdmin(context, "add principals");
    Principal principal = new Principal(ids.newId(), command.kind(), command.name());
    unitOfWork.inTransaction(() -> {
      command.externalId().flatMap(directory::findByExternalId).ifPresent(taken -> {
        throw new AlreadyExistsException("Another user already has that external_id");
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
    PrincipalDetails member = member(context, principalId);
    if (member.principal().kind() == Principal.Kind.TEAM && role != Role.MEMBER) {
      throw Invalid.because("a team's role is always MEMBER; make its users admins instead");
    }
    requireNotSelf(context, principalId, "change your own role");
    directory.setRole(context.org().id(), principalId, role);
    return member(context, principalId);
  }

  @Override
  public void removeMember(OrgContext context, UUID principalId) {
    policy.requireAdmin(context, "remove members");
    member(context, principalId);
    requireNotSelf(context, principalId, "remove yourself");
    unitOfWork.inTransaction(() -> directory.removeMember(context.org().id(), principalId));
  }

  @Override
  public void addTeamMember(OrgContext context, UUID teamId, UUID userId) {
    policy.requireAdmin(context, "change teams");
    team(context, teamId);
    if (member(context, userId).principal().kind() != Principal.Kind.USER) {
      throw Invalid.because("only users can be members of a team");
    }
    directory.addTeamMember(teamId, userId);
  }

  @Override
  public void removeTeamMember(OrgContext context, UUID teamId, UUID userId) {
    policy.requireAdmin(context, "change teams");
    team(context, teamId);
    if (!directory.removeTeamMember(teamId, userId)) {
      throw new NotFoundException("Not a member of that team: %s", userId);
    }
  }

  @Override
  public List<PrincipalDetails> teamMembers(OrgContext context, UUID teamId) {
    team(context, teamId);
    return directory.teamMembers(context.org().id(), teamId);
  }

  @Override
  public IssuedToken issueToken(OrgContext context, IssueTokenCommand command) {
    policy.requireAdmin(context, "issue tokens");
    PrincipalDetails holder = managed(context, command.principalId());
    if (holder.principal().kind() == Principal.Kind.TEAM) {
      throw Invalid.because("teams cannot hold tokens; issue them to the team's users");
    }
    Instant now = clock.instant();
    if (command.expiresAt().filter(expiry -> !expiry.isAfter(now)).isPresent()) {
      throw Invalid.because("expires_at must be in the future");
    }
    String secret = ApiToken.secretFrom(ids.randomBytes(TOKEN_BYTES));
    ApiToken token = new ApiToken(ids.newId(), holder.principal().id(), ApiToken.hash(secret),
        now, command.expiresAt(), Optional.empty());
    directory.insertToken(token, command.description());
    return new IssuedToken(secret, new TokenDetails(token.id(), token.principalId(),
        command.description(), now, command.expiresAt(), Optional.empty(), Optional.empty()));
  }

  @Override
  public List<TokenDetails> tokens(OrgContext context, Optional<UUID> principalId) {
    policy.requireAdmin(context, "list tokens");
    return directory.tokens(context.org().id(), principalId);
  }

  @Override
  public TokenDetails revokeToken(OrgContext context, UUID tokenId) {
    policy.requireAdmin(context, "revoke tokens");
    directory.token(context.org().id(), tokenId)
        .orElseThrow(() -> new NotFoundException("No such token: %s", tokenId));
    directory.revokeToken(tokenId, clock.instant());
    return directory.token(context.org().id(), tokenId).orElseThrow();
  }

  @Override
  public GrantDetails grant(OrgContext context, GrantCommand command) {
    Namespace namespace = visibleNamespace(context, command.namespace());
    policy.require(context, Action.MANAGE, namespace);
    member(context, command.principalId());
    Optional<UUID> tableId = command.table().map(name -> objects
        .find(context.org().id(), namespace.name(), name)
        .map(CatalogObject::id)
        .orElseThrow(() -> new NoSuchTableException("Table does not exist: %s.%s",
            namespace.name(), name)));
    Grant grant = new Grant(command.principalId(), namespace.id(), tableId, command.action());
    return details(grants.save(new GrantStore.Entry(ids.newId(), context.org().id(), grant,
        clock.instant())));
  }

  @Override
  public List<GrantDetails> grants(OrgContext context, Optional<CatalogName> namespace,
      Optional<UUID> principalId) {
    if (namespace.isPresent()) {
      Namespace found = visibleNamespace(context, namespace.get());
      policy.require(context, Action.MANAGE, found);
      return grants.list(context.org().id(), Optional.of(found.id()), principalId).stream()
          .map(AccessManagementService::details).toList();
    }
    UUID caller = context.caller().principal().id();
    // Everyone sees the grants made to them; the others only where they may manage them.
    return grants.list(context.org().id(), Optional.empty(), principalId).stream()
        .filter(named -> context.isAdmin() || named.entry().grant().principalId().equals(caller)
            || mayManage(context, named))
        .map(AccessManagementService::details).toList();
  }

  @Override
  public void revokeGrant(OrgContext context, UUID grantId) {
    GrantStore.Named named = grants.find(context.org().id(), grantId)
        .filter(found -> context.isAdmin() || mayManage(context, found))
        .orElseThrow(() -> new NotFoundException("No such grant: %s", grantId));
    grants.delete(named.entry().id());
  }

  private boolean mayManage(OrgContext context, GrantStore.Named named) {
    return namespaces.findLive(context.org().id(), new CatalogName(named.namespaceName()))
        .filter(found -> policy.allows(context, Action.MANAGE, found))
        .isPresent();
  }

  private Namespace visibleNamespace(OrgContext context, CatalogName name) {
    return namespaces.findLive(context.org().id(), name)
        .filter(found -> policy.canSee(context, found))
        .orElseThrow(() -> new NoSuchNamespaceException("Namespace does not exist: %s", name));
  }

  private PrincipalDetails member(OrgContext context, UUID principalId) {
    return directory.member(context.org().id(), principalId)
        .orElseThrow(() -> new NotFoundException("No such member of this org: %s", principalId));
  }

  /** A member created in this org: only then do this org's admins manage it. */
  private PrincipalDetails managed(OrgContext context, UUID principalId) {
    PrincipalDetails member = member(context, principalId);
    if (!directory.isHomedIn(principalId, context.org().id())) {
      throw new NotFoundException("No such member of this org: %s", principalId);
    }
    return member;
  }

  private PrincipalDetails team(OrgContext context, UUID teamId) {
    PrincipalDetails team = managed(context, teamId);
    if (team.principal().kind() != Principal.Kind.TEAM) {
      throw new NotFoundException("No such team: %s", teamId);
    }
    return team;
  }

  private static void requireNotSelf(OrgContext context, UUID principalId, String what) {
    if (context.caller().principal().id().equals(principalId)) {
      // An org must not lose its last admin by accident; another admin can do it.
      throw new org.apache.iceberg.exceptions.ForbiddenException("You cannot %s", what);
    }
  }

  private static GrantDetails details(GrantStore.Named named) {
    GrantStore.Entry entry = named.entry();
    return new GrantDetails(entry.id(), entry.grant().principalId(), named.principalName(),
        named.namespaceName(), named.tableName(), entry.grant().action(), entry.createdAt());
  }
}
