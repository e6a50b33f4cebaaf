package io.floe.domain;

import java.util.Objects;
import java.util.UUID;

/** A principal belongs to an org with a role. */
public record Membership(UUID orgId, UUID principalId, Role role) {
  public Membership {
    Objects.requireNonNull(orgId, "orgId");
    Objects.requireNonNull(principalId, "principalId");
    Objects.requireNonNull(role, "role");
  }
}
