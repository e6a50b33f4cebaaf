package io.floe.application.security;

import io.floe.domain.Principal;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * The authenticated principal behind a request. A person an identity provider vouches for may be
 * several principals, each org's own user with that external id: {@code identities} holds them
 * all, and in an org the caller acts as the one that is a member there ({@link OrgContext#enter}). An API
 * token is always exactly its own principal. A maintenance job's token
 * ({@link MaintenanceJobTokens}) is the scheduler's principal limited to what {@code scope}
 * names: one table of one org, until the token expires.
 */
public record Caller(Principal principal, List<Principal> identities,
    Optional<MaintenanceJobTokens.JobScope> scope) {
  public Caller {
    Objects.requireNonNull(principal, "principal");
    identities = List.copyOf(identities);
    Objects.requireNonNull(scope, "scope");
    if (!identities.contains(principal)) {
      throw new IllegalArgumentException("a caller's principal is one of its identities");
    }
  }

  public Caller(Principal principal, List<Principal> identities) {
    this(principal, identities, Optional.empty());
  }

  public Caller(Principal principal) {
    this(principal, List.of(principal));
  }

  /** The same caller acting as {@code identity}, one of its own. */
  public Caller as(Principal identity) {
    return new Caller(identity, identities, scope);
  }
}
