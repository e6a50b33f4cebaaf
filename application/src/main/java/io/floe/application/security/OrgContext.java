package io.floe.application.security;

import io.floe.application.model.RequestInfo;
import io.floe.application.port.out.PrincipalStore;
import io.floe.domain.Membership;
import io.floe.domain.Org;
import io.floe.domain.Principal;
import io.floe.domain.Role;
import java.util.Objects;
import java.util.Optional;

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

  /**
   * The caller inside {@code org}, as whichever of its identities is a member there; empty when
   * none is. The one place a membership decides who a caller is in an org.
   */
  public static Optional<OrgContext> enter(Caller caller, Org org,
      PrincipalStore principals) {
    if (caller.scope().isPresent()) {
      // A maintenance job's token: a member of its own org only, with no role beyond its table.
      return caller.scope().filter(scope -> scope.orgId().equals(org.id()))
          .map(scope -> new OrgContext(caller, org,
              new Membership(org.id(), caller.principal().id(), Role.MEMBER)));
    }
    for (Principal identity : caller.identities()) {
      Optional<Membership> membership =
          principals.findMembership(org.id(), identity.id());
      if (membership.isPresent()) {
        return java.util.Optional.of(new OrgContext(caller.as(identity), org, membership.get()));
      }
    }
    return java.util.Optional.empty();
  }

  public boolean isAdmin() {
    return membership.role() == Role.ADMIN;
  }
}
