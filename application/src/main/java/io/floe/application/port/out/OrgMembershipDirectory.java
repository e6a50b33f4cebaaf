package io.floe.application.port.out;

import io.floe.application.model.MemberOrg;
import java.util.List;
import java.util.UUID;

/** Which orgs a principal is a direct member of, read in one query. */
public interface OrgMembershipDirectory {
  /** The principal's orgs ordered by name, each with the principal's role in it. */
  List<MemberOrg> orgsOf(UUID principalId);
}
