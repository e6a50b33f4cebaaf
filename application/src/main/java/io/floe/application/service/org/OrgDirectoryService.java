package io.floe.application.service.org;

import io.floe.application.model.MemberOrg;
import io.floe.application.port.in.org.OrgsUseCase;
import io.floe.application.port.out.OrgMembershipDirectory;
import io.floe.application.security.Caller;
import io.floe.application.security.OrgContext;
import java.util.List;
import org.apache.iceberg.exceptions.NoSuchWarehouseException;

/**
 * The orgs a caller belongs to. Membership already decided whether the caller may enter an org,
 * so reading one needs no further rule; it is looked up among the caller's own orgs, which keeps
 * the answer and the listing the same.
 */
public final class OrgDirectoryService implements OrgsUseCase {
  private final OrgMembershipDirectory memberships;

  public OrgDirectoryService(OrgMembershipDirectory memberships) {
    this.memberships = memberships;
  }

  @Override
  public List<MemberOrg> orgsOf(Caller caller) {
    return memberships.orgsOf(caller.principal().id());
  }

  @Override
  public MemberOrg get(OrgContext context) {
    return orgsOf(context.caller()).stream()
        .filter(member -> member.org().id().equals(context.org().id()))
        .findFirst()
        .orElseThrow(() -> new NoSuchWarehouseException("Org does not exist: %s",
            context.org().name()));
  }
}
