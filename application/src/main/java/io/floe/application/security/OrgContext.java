package io.floe.application.security;

import io.floe.application.model.RequestInfo;
import io.floe.domain.Membership;
import io.floe.domain.Org;
import io.floe.domain.Role;
import java.util.Objects;

/**
 * A caller acting inside one org it belongs to, on behalf of one request: the scope of every
 * catalog operation.
 */
public record OrgContext(Caller caller, Org org, Membership membership, RequestInfo request) {
  public OrgContext {
    Objects.requireNonNull(caller, "caller");
    Objects.requireNonNull(org, "org");
    Objects.requireNonNull(membership, "membership");
    Objects.requireNonNull(request, "request");
  }

  public OrgContext(Caller caller, Org org, Membership membership) {
    this(caller, org, membership, RequestInfo.internal());
  }

  /** The same caller in the same org, acting for {@code request}. */
  public OrgContext on(RequestInfo request) {
    return new OrgContext(caller, org, membership, request);
  }

  public boolean isAdmin() {
    return membership.role() == Role.ADMIN;
  }
}
