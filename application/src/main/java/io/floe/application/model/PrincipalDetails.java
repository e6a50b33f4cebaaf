package io.floe.application.model;

import io.floe.domain.Principal;
import io.floe.domain.Role;
import java.util.Objects;
import java.util.Optional;

/** A member of an org as the management API shows it. */
public record PrincipalDetails(Principal principal, Role role, Optional<String> externalId) {
  public PrincipalDetails {
    Objects.requireNonNull(principal, "principal");
    Objects.requireNonNull(role, "role");
    Objects.requireNonNull(externalId, "externalId");
  }
}
