package io.floe.application.service.access;

import io.floe.application.port.in.access.AuthenticateUseCase;
import io.floe.application.port.out.IdentityTokens;
import io.floe.application.port.out.OrgStore;
import io.floe.application.port.out.PrincipalStore;
import io.floe.application.security.Caller;
import io.floe.application.security.OrgContext;
import io.floe.domain.ApiToken;
import io.floe.domain.InvalidNameException;
import io.floe.domain.Membership;
import io.floe.domain.Org;
import io.floe.domain.OrgName;
import io.floe.domain.Principal;
import java.time.Clock;
import java.time.Instant;
import java.util.Optional;
import java.util.function.Function;
import org.apache.iceberg.exceptions.NoSuchWarehouseException;
import org.apache.iceberg.exceptions.NotAuthorizedException;

/**
 * Authenticates API tokens (stored only as hashes) and an identity provider's JWTs (mapped to the
 * user whose external id they name), and scopes callers to their orgs.
 */
public final class AuthenticationService implements AuthenticateUseCase {
  private static final String REFUSED = "Invalid, expired or revoked token";

  private final PrincipalStore principals;
  private final OrgStore orgs;
  private final Clock clock;
  private final IdentityTokens identityTokens;
  private final Function<String, Optional<Principal>> usersByExternalId;

  public AuthenticationService(PrincipalStore principals, OrgStore orgs, Clock clock) {
    this(principals, orgs, clock, IdentityTokens.NONE, externalId -> Optional.empty());
  }

  public AuthenticationService(PrincipalStore principals, OrgStore orgs, Clock clock,
      IdentityTokens identityTokens, Function<String, Optional<Principal>> usersByExternalId) {
    this.principals = principals;
    this.orgs = orgs;
    this.clock = clock;
    this.identityTokens = identityTokens;
    this.usersByExternalId = usersByExternalId;
  }

  @Override
  public Caller authenticate(String bearerToken) {
    if (bearerToken == null || bearerToken.isBlank()) {
      throw new NotAuthorizedException("Authentication required: send 'Authorization: Bearer <token>'");
    }
    String secret = bearerToken.strip();
    if (!secret.startsWith(ApiToken.PREFIX)) {
      // Not one of ours: only an identity provider's token for a known user can be valid.
      return identityTokens.verify(secret).flatMap(usersByExternalId)
          .map(Caller::new)
          .orElseThrow(() -> new NotAuthorizedException(REFUSED));
    }
    Instant now = clock.instant();
    ApiToken token = principals.findTokenByHash(ApiToken.hash(secret))
        .filter(found -> found.isUsableAt(now))
        .orElseThrow(() -> new NotAuthorizedException(REFUSED));
    Principal principal = principals.findPrincipal(token.principalId())
        .orElseThrow(() -> new NotAuthorizedException(REFUSED));
    principals.touchToken(token.id(), now);
    return new Caller(principal);
  }

  @Override
  public OrgContext enterOrg(Caller caller, String warehouse) {
    Optional<Org> org = parse(warehouse).flatMap(orgs::findOrg);
    Optional<Membership> membership =
        org.flatMap(found -> principals.findMembership(found.id(), caller.principal().id()));
    if (membership.isEmpty()) {
      throw new NoSuchWarehouseException("Warehouse does not exist: %s", warehouse);
    }
    return new OrgContext(caller, org.get(), membership.get());
  }

  private static Optional<OrgName> parse(String warehouse) {
    try {
      return Optional.of(new OrgName(warehouse));
    } catch (InvalidNameException | NullPointerException e) {
      return Optional.empty();
    }
  }
}
