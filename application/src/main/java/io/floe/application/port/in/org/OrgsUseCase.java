package io.floe.application.port.in.org;

import io.floe.application.security.Caller;
import io.floe.application.security.OrgContext;
import io.floe.application.model.MemberOrg;
import java.util.List;

/** The orgs a caller belongs to, and one of them; an org the caller is not in does not exist. */
public interface OrgsUseCase {
  /** The orgs {@code caller} is a member of, by name. */
  List<MemberOrg> orgsOf(Caller caller);

  MemberOrg get(OrgContext context);
}
