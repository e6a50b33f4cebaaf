package io.floe.application.service;

import io.floe.application.port.in.AuthenticateUseCase;
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
import org.apache.iceberg.exceptions.NoSuchWarehouseException;
import org.apache.iceberg.exceptions.NotAuthorizedException;

/** Authenticates API tokens (stored only as hashes) and scopes callers to their orgs. */
public final class AuthenticationService implements AuthenticateUseCase {
  private final PrincipalStore principals;
  private final OrgStore orgs;
  private final Clock clock;

  public AuthenticationService(PrincipalStore principals, OrgStore orgs, Clock clock) {
    this.principals = principals;
    this.orgs = orgs;
    this.clock = clock;
  }

  @Override
  public Caller authenticate(String bearerToken) {
    if (bearerToken == null || bearerToken.isBlank()) {
      throw new NotAuthorizedException("Authentication required: send 'Authorization: Bearer <token>'");
    }
    Instant now = clock.instant();
    ApiToken token = principals.findTokenByHash(ApiToken.hash(bearerToken.strip()))
        .filter(found -> found.isUsableAt(now))
        .orElseThrow(() -> new NotAuthorizedException("Invalid, expired or revoked token"));
    Principal principal = principals.findPrincipal(token.principalId())
        .orElseThrow(() -> new NotAuthorizedException("Invalid, expired or revoked token"));
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
