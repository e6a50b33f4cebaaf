package io.floe.application.port.out.inmemory;

import io.floe.application.port.out.PrincipalStore;
import io.floe.application.port.out.inmemory.InMemoryDatabase.MembershipKey;
import io.floe.application.port.out.inmemory.InMemoryDatabase.PrincipalRow;
import io.floe.application.port.out.inmemory.InMemoryDatabase.TokenRow;
import io.floe.domain.ApiToken;
import io.floe.domain.Membership;
import io.floe.domain.Principal;
import java.time.Instant;
import java.util.Optional;
import java.util.UUID;

/** Principals, memberships and token hashes in memory. */
public final class InMemoryPrincipalStore implements PrincipalStore {
  /** How old the recorded use of a token must be before a use is written again. */
  private static final long TOUCH_INTERVAL_SECONDS = 60;

  private final InMemoryDatabase db;

  public InMemoryPrincipalStore(InMemoryDatabase db) {
    this.db = db;
  }

  @Override
  public void insertPrincipal(Principal principal) {
    db.statement(() -> insert(db, principal, Optional.empty(), Optional.empty()));
  }

  static void insert(InMemoryDatabase db, Principal principal, Optional<String> externalId,
      Optional<UUID> homeOrgId) {
    if (db.principals.containsKey(principal.id())) {
      throw InMemoryDatabase.uniqueViolation("principals_pkey");
    }
    if (externalId.isPresent() && db.principals.values().stream()
        .anyMatch(row -> row.externalId().equals(externalId) && row.homeOrgId().equals(homeOrgId))) {
      throw InMemoryDatabase.uniqueViolation("principals_external_id_per_org");
    }
    db.principals.put(principal.id(), new PrincipalRow(principal, externalId, homeOrgId));
  }

  @Override
  public Optional<Principal> findPrincipal(UUID id) {
    return db.statement(() -> db.principals.get(id).map(PrincipalRow::principal));
  }

  @Override
  public void insertMembership(Membership membership) {
    db.statement(() -> insert(db, membership));
  }

  static void insert(InMemoryDatabase db, Membership membership) {
    MembershipKey key = new MembershipKey(membership.orgId(), membership.principalId());
    if (db.memberships.containsKey(key)) {
      throw InMemoryDatabase.uniqueViolation("memberships_pkey");
    }
    db.memberships.put(key, membership.role());
  }

  @Override
  public Optional<Membership> findMembership(UUID orgId, UUID principalId) {
    return db.statement(() -> db.memberships.get(new MembershipKey(orgId, principalId))
        .map(role -> new Membership(orgId, principalId, role)));
  }

  @Override
  public void insertToken(ApiToken token) {
    db.statement(() -> insert(db, token, Optional.empty()));
  }

  static void insert(InMemoryDatabase db, ApiToken token, Optional<String> description) {
    if (db.tokens.containsKey(token.id())) {
      throw InMemoryDatabase.uniqueViolation("api_tokens_pkey");
    }
    if (db.tokens.values().stream()
        .anyMatch(row -> row.token().secretHash().equals(token.secretHash()))) {
      throw InMemoryDatabase.uniqueViolation("api_tokens_secret_hash_key");
    }
    db.tokens.put(token.id(), new TokenRow(token, description, Optional.empty()));
  }

  @Override
  public Optional<ApiToken> findTokenByHash(String secretHash) {
    return db.statement(() -> db.tokens.values().stream().map(TokenRow::token)
        .filter(token -> token.secretHash().equals(secretHash)).findFirst());
  }

  @Override
  public void touchToken(UUID tokenId, Instant usedAt) {
    db.statement(() -> db.tokens.get(tokenId)
        .filter(row -> row.lastUsedAt()
            .map(last -> last.isBefore(usedAt.minusSeconds(TOUCH_INTERVAL_SECONDS)))
            .orElse(true))
        .ifPresent(row -> db.tokens.put(tokenId,
            new TokenRow(row.token(), row.description(), Optional.of(usedAt)))));
  }
}
