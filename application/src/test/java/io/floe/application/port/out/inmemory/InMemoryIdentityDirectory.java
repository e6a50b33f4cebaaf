package io.floe.application.port.out.inmemory;

import io.floe.application.model.PrincipalDetails;
import io.floe.application.model.TokenDetails;
import io.floe.application.port.out.IdentityDirectory;
import io.floe.application.port.out.inmemory.InMemoryDatabase.MembershipKey;
import io.floe.application.port.out.inmemory.InMemoryDatabase.PrincipalRow;
import io.floe.application.port.out.inmemory.InMemoryDatabase.TeamMember;
import io.floe.application.port.out.inmemory.InMemoryDatabase.TokenRow;
import io.floe.domain.ApiToken;
import io.floe.domain.Membership;
import io.floe.domain.Principal;
import io.floe.domain.Role;
import java.time.Instant;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import java.util.stream.Stream;

/** Members, teams and token records in memory. */
public final class InMemoryIdentityDirectory implements IdentityDirectory {
  private static final Comparator<PrincipalDetails> BY_NAME =
      Comparator.<PrincipalDetails, String>comparing(member -> member.principal().name())
          .thenComparing(member -> member.principal().id());

  private final InMemoryDatabase db;

  public InMemoryIdentityDirectory(InMemoryDatabase db) {
    this.db = db;
  }

  @Override
  public void createMember(Principal principal, UUID homeOrgId, Role role,
      Optional<String> externalId) {
    db.statement(() -> {
      InMemoryPrincipalStore.insert(db, principal, externalId, Optional.of(homeOrgId));
      InMemoryPrincipalStore.insert(db, new Membership(homeOrgId, principal.id(), role));
    });
  }

  @Override
  public List<Principal> usersByExternalId(String externalId) {
    return db.statement(() -> db.principals.values().stream()
        .filter(row -> row.externalId().equals(Optional.of(externalId))
            && row.principal().kind() == Principal.Kind.USER)
        .map(PrincipalRow::principal).sorted(Comparator.comparing(Principal::id)).toList());
  }

  @Override
  public Optional<String> externalIdOf(UUID principalId) {
    return db.statement(() -> db.principals.get(principalId).flatMap(PrincipalRow::externalId));
  }

  @Override
  public boolean isHomedIn(UUID principalId, UUID orgId) {
    return db.statement(() -> db.principals.get(principalId)
        .filter(row -> row.homeOrgId().equals(Optional.of(orgId))).isPresent());
  }

  @Override
  public List<PrincipalDetails> members(UUID orgId, Optional<Principal.Kind> kind) {
    // Kinds sort by their names, as the text column they are stored in does.
    return db.statement(() -> members(orgId)
        .filter(member -> kind.map(wanted -> member.principal().kind() == wanted).orElse(true))
        .sorted(Comparator.<PrincipalDetails, String>comparing(
            member -> member.principal().kind().name()).thenComparing(BY_NAME))
        .toList());
  }

  @Override
  public Optional<PrincipalDetails> member(UUID orgId, UUID principalId) {
    return db.statement(() -> members(orgId)
        .filter(member -> member.principal().id().equals(principalId)).findFirst());
  }

  @Override
  public void setRole(UUID orgId, UUID principalId, Role role) {
    db.statement(() -> {
      MembershipKey key = new MembershipKey(orgId, principalId);
      if (db.memberships.containsKey(key)) {
        db.memberships.put(key, role);
      }
    });
  }

  @Override
  public void removeMember(UUID orgId, UUID principalId) {
    db.statement(() -> {
      db.grants.rows().values().removeIf(grant -> grant.orgId().equals(orgId)
          && grant.principalId().equals(principalId));
      db.memberships.remove(new MembershipKey(orgId, principalId));
    });
  }

  @Override
  public boolean addTeamMember(UUID teamId, UUID userId) {
    return db.statement(() -> {
      TeamMember member = new TeamMember(teamId, userId);
      if (db.teamMembers.containsKey(member)) {
        return false;
      }
      db.teamMembers.put(member, member);
      return true;
    });
  }

  @Override
  public boolean removeTeamMember(UUID teamId, UUID userId) {
    return db.statement(() -> db.teamMembers.remove(new TeamMember(teamId, userId)));
  }

  @Override
  public List<PrincipalDetails> teamMembers(UUID orgId, UUID teamId) {
    return db.statement(() -> members(orgId)
        .filter(member -> db.teamMembers.containsKey(
            new TeamMember(teamId, member.principal().id())))
        .sorted(BY_NAME).toList());
  }

  @Override
  public void insertToken(ApiToken token, Optional<String> description) {
    // A token is issued unrevoked, whatever the record says.
    db.statement(() -> InMemoryPrincipalStore.insert(db, new ApiToken(token.id(),
        token.principalId(), token.secretHash(), token.createdAt(), token.expiresAt(),
        Optional.empty()), description));
  }

  @Override
  public List<TokenDetails> tokens(UUID orgId, Optional<UUID> principalId) {
    return db.statement(() -> homedTokens(orgId)
        .filter(row -> principalId.map(row.token().principalId()::equals).orElse(true))
        .sorted(Comparator.<TokenRow, Instant>comparing(row -> row.token().createdAt())
            .reversed().thenComparing(row -> row.token().id()))
        .map(InMemoryIdentityDirectory::details).toList());
  }

  @Override
  public Optional<TokenDetails> token(UUID orgId, UUID tokenId) {
    return db.statement(() -> homedTokens(orgId)
        .filter(row -> row.token().id().equals(tokenId))
        .map(InMemoryIdentityDirectory::details).findFirst());
  }

  @Override
  public void revokeToken(UUID tokenId, Instant now) {
    db.statement(() -> db.tokens.get(tokenId)
        .filter(row -> row.token().revokedAt().isEmpty())
        .ifPresent(row -> db.tokens.put(tokenId, new TokenRow(new ApiToken(row.token().id(),
            row.token().principalId(), row.token().secretHash(), row.token().createdAt(),
            row.token().expiresAt(), Optional.of(now)), row.description(), row.lastUsedAt()))));
  }

  private Stream<PrincipalDetails> members(UUID orgId) {
    return db.principals.values().stream().flatMap(row ->
        db.memberships.get(new MembershipKey(orgId, row.principal().id()))
            .map(role -> new PrincipalDetails(row.principal(), role, row.externalId()))
            .stream());
  }

  private Stream<TokenRow> homedTokens(UUID orgId) {
    return db.tokens.values().stream().filter(row -> db.principals.get(row.token().principalId())
        .filter(principal -> principal.homeOrgId().equals(Optional.of(orgId))).isPresent());
  }

  private static TokenDetails details(TokenRow row) {
    ApiToken token = row.token();
    return new TokenDetails(token.id(), token.principalId(), row.description(),
        token.createdAt(), token.expiresAt(), token.revokedAt(), row.lastUsedAt());
  }
}
