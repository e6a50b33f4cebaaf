package io.floe.application.port.in;

import io.floe.application.security.Caller;
import io.floe.application.security.OrgContext;
import io.floe.domain.Org;
import io.floe.domain.Role;
import java.time.Instant;
import java.util.List;

/** The orgs a caller belongs to, and one of them; an org the caller is not in does not exist. */
public interface OrgsUseCase {
  /** An org as one of its members sees it: with that member's role. */
  record MemberOrg(Org org, Instant createdAt, Role role) {}

  /** The orgs {@code caller} is a member of, by name. */
  List<MemberOrg> orgsOf(Caller caller);

  MemberOrg get(OrgContext context);
}
