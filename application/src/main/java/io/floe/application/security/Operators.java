package io.floe.application.security;

import io.floe.application.port.out.OrgStore;
import io.floe.application.port.out.PrincipalStore;
import io.floe.domain.OrgName;
import java.util.Objects;
import java.util.Optional;

/**
 * Who the server's operators are: the admins of its bootstrap org ({@link
 * AccessPolicy#isOperator} decides from the caller's membership there). Server-wide decisions
 * ask here, whatever org the request is about.
 */
public final class Operators {
  private final OrgStore orgs;
  private final PrincipalStore principals;
  private final AccessPolicy policy;
  private final OrgName bootstrapOrg;

  public Operators(OrgStore orgs, PrincipalStore principals, AccessPolicy policy,
      OrgName bootstrapOrg) {
    this.orgs = Objects.requireNonNull(orgs, "orgs");
    this.principals = Objects.requireNonNull(principals, "principals");
    this.policy = Objects.requireNonNull(policy, "policy");
    this.bootstrapOrg = Objects.requireNonNull(bootstrapOrg, "bootstrapOrg");
  }

  /**
   * A 403 unless {@code caller} is an operator; it reveals nothing about the target. Returns the
   * operator acting from the bootstrap org, where server-wide changes are recorded.
   */
  public OrgContext require(Caller caller, String what) {
    Optional<OrgContext> context = inBootstrapOrg(caller);
    policy.requireOperator(context, bootstrapOrg, what);
    return context.orElseThrow();
  }

  private Optional<OrgContext> inBootstrapOrg(Caller caller) {
    return orgs.findOrg(bootstrapOrg).flatMap(org -> OrgContext.enter(caller, org, principals));
  }
}
