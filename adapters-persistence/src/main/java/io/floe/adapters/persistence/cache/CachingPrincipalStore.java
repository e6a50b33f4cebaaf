package io.floe.adapters.persistence.cache;

import io.floe.application.port.out.PrincipalStore;
import io.floe.domain.ApiToken;
import io.floe.domain.Membership;
import io.floe.domain.Principal;
import java.time.Instant;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;

/**
 * The principal store with what every request reads cached: tokens by hash, principals and
 * memberships. A token's expiry is still checked on every use; revocations and membership changes
 * are forgotten as {@link CacheInvalidations} says. Recording a token's use is buffered and written
 * in batches off the request path.
 */
public final class CachingPrincipalStore implements PrincipalStore {
  private record MembershipKey(UUID orgId, UUID principalId) {}

  private final PrincipalStore store;
  private final TokenUseRecorder uses;
  private final InvalidatedCache<String, ApiToken> tokens;
  private final InvalidatedCache<UUID, Principal> principals;
  private final InvalidatedCache<MembershipKey, Membership> memberships;

  public CachingPrincipalStore(PrincipalStore store, CacheInvalidations invalidations,
      TokenUseRecorder uses) {
    this.store = store;
    this.uses = uses;
    this.tokens = invalidations.newCache("tokens", 10_000, Set.of("api_tokens", "principals"));
    this.principals = invalidations.newCache("principals", 10_000, Set.of("principals"));
    this.memberships = invalidations.newCache("memberships", 10_000,
        Set.of("memberships", "principals", "orgs"));
  }

  @Override
  public Optional<ApiToken> findTokenByHash(String secretHash) {
    return tokens.find(secretHash, store::findTokenByHash);
  }

  @Override
  public Optional<Principal> findPrincipal(UUID id) {
    return principals.find(id, store::findPrincipal);
  }

  @Override
  public Optional<Membership> findMembership(UUID orgId, UUID principalId) {
    return memberships.find(new MembershipKey(orgId, principalId),
        key -> store.findMembership(key.orgId(), key.principalId()));
  }

  @Override
  public void touchToken(UUID tokenId, Instant usedAt) {
    uses.record(tokenId, usedAt);
  }

  @Override
  public void insertPrincipal(Principal principal) {
    store.insertPrincipal(principal);
  }

  @Override
  public void insertMembership(Membership membership) {
    store.insertMembership(membership);
  }

  @Override
  public void insertToken(ApiToken token) {
    store.insertToken(token);
  }
}
