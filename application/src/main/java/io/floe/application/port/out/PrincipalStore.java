package io.floe.application.port.out;

import io.floe.domain.ApiToken;
import io.floe.domain.Membership;
import io.floe.domain.Principal;
import java.time.Instant;
import java.util.Optional;
import java.util.UUID;

/** Principals, their org memberships and their API tokens. */
public interface PrincipalStore {
  void insertPrincipal(Principal principal);

  Optional<Principal> findPrincipal(UUID id);

  void insertMembership(Membership membership);

  Optional<Membership> findMembership(UUID orgId, UUID principalId);

  void insertToken(ApiToken token);

  Optional<ApiToken> findTokenByHash(String secretHash);

  /** Records that a token was used; cheap enough to call on every request. */
  void touchToken(UUID tokenId, Instant usedAt);
}
