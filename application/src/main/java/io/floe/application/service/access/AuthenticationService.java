package io.floe.application.service.access;

import io.floe.application.port.in.access.AuthenticateUseCase;
import io.floe.application.port.out.ExternalIdentities;
import io.floe.application.port.out.IdentityTokens;
import io.floe.application.port.out.OrgStore;
import io.floe.application.port.out.PrincipalStore;
import io.floe.application.security.Caller;
import io.floe.application.security.MaintenanceJobTokens;
import io.floe.application.security.OrgContext;
import io.floe.domain.ApiToken;
import io.floe.domain.InvalidNameException;
import io.floe.domain.OrgName;
import io.floe.domain.Principal;
import java.time.Clock;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import org.apache.iceberg.exceptions.NoSuchWarehouseException;
import org.apache.iceberg.exceptions.NotAuthorizedException;

/**
 * Authenticates API tokens (stored only as hashes) and an identity provider's JWTs (mapped to the
 * users whose external id they name, one per org), and scopes callers to their orgs.
 */
public final class AuthenticationService implements AuthenticateUseCase {
  private static final String REFUSED = "Invalid, expired or revoked token";

  private final PrincipalStore principals;
  private final OrgStore orgs;
  private final Clock clock;
  private final IdentityTokens identityTokens;
  private final ExternalIdentities externalIdentities;
  private final Optional<MaintenanceJobTokens> jobTokens;

  public AuthenticationService(PrincipalStore principals, OrgStore orgs, Clock clock) {
    this(principals, orgs, clock, IdentityTokens.NONE, ExternalIdentities.NONE);
  }

  public AuthenticationService(PrincipalStore principals, OrgStore orgs, Clock clock,
      IdentityTokens identityTokens, ExternalIdentities externalIdentities) {
    this(principals, orgs, clock, identityTokens, externalIdentities, Optional.empty());
  }

  /** Also accepting the tokens of maintenance jobs run outside the server. */
  public AuthenticationService(PrincipalStore principals, OrgStore orgs, Clock clock,
      IdentityTokens identityTokens, ExternalIdentities externalIdentities,
      Optional<MaintenanceJobTokens> jobTokens) {
    this.jobTokens = jobTokens;
    this.principals = principals;
    this.orgs = orgs;
    this.clock = clock;
    this.identityTokens = identityTokens;
    this.externalIdentities = externalIdentities;
  }

  @Override
  public Caller authenticate(String bearerToken) {
    if (bearerToken == null || bearerToken.isBlank()) {
      throw new NotAuthorizedException("Authentication required: send 'Authorization: Bearer <token>'");
    }
    String secret = bearerToken.strip();
    if (secret.startsWith(MaintenanceJobTokens.PREFIX)) {
      return jobTokens.flatMap(tokens -> tokens.open(secret)).map(MaintenanceJobTokens::caller)
          .orElseThrow(() -> new NotAuthorizedException(REFUSED));
    }
    if (!secret.startsWith(ApiToken.PREFIX)) {
      // Not one of ours: only an identity provider's token for a known user can be valid.
      return identityTokens.verify(secret).flatMap(this::callerNamed)
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

  /**
   * The person an identity provider vouches for: every org's user with that external id, one
   * per org. In an org the caller acts as that org's user ({@link OrgContext#enter}).
   */
  @Override
  public Optional<Caller> callerNamed(String externalId) {
    List<Principal> users = externalIdentities.usersByExternalId(externalId).stream()
        .filter(principal -> principal.kind() == Principal.Kind.USER).toList();
    return users.isEmpty() ? Optional.empty() : Optional.of(new Caller(users.get(0), users));
  }

  @Override
  public OrgContext enterOrg(Caller caller, String warehouse) {
    return parse(warehouse).flatMap(orgs::findOrg)
        .flatMap(org -> OrgContext.enter(caller, org, principals))
        .orElseThrow(() -> new NoSuchWarehouseException("Warehouse does not exist: %s",
            warehouse));
  }

  private static Optional<OrgName> parse(String warehouse) {
    try {
      return Optional.of(new OrgName(warehouse));
    } catch (InvalidNameException | NullPointerException e) {
      return Optional.empty();
    }
  }
}
