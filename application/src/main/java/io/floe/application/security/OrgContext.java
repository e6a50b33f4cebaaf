package io.floe.application.security;

import io.floe.domain.Membership;
import io.floe.domain.Org;
import io.floe.domain.Role;
import java.util.Objects;

/** A caller acting inside one org it belongs to: the scope of every catalog operation. */
public record OrgContext(Caller caller, Org org, Membership membership) {
  public OrgContext {
    Objects.requireNonNull(caller, "caller");
    Objects.requireNonNull(org, "org");
    Objects.requireNonNull(membership, "membership");
  }

  public boolean isAdmin() {
    return membership.role() == Role.ADMIN;
  }
}
