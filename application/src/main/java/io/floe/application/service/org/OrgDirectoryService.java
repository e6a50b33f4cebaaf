package io.floe.application.service.org;

import io.floe.application.model.MemberOrg;
import io.floe.application.port.in.org.OrgsUseCase;
import io.floe.application.port.out.OrgMembershipDirectory;
import io.floe.application.security.Caller;
import io.floe.application.security.OrgContext;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
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

  /** The orgs of every identity of the caller (one per org), ordered by name. */
  @Override
  public List<MemberOrg> orgsOf(Caller caller) {
    if (caller.identities().size() == 1) {
      return memberships.orgsOf(caller.principal().id());
    }
    Map<UUID, MemberOrg> byOrg = new LinkedHashMap<>();
    caller.identities().forEach(identity -> memberships.orgsOf(identity.id())
        .forEach(member -> byOrg.putIfAbsent(member.org().id(), member)));
    return byOrg.values().stream()
        .sorted(Comparator.comparing(member -> member.org().name().value())).toList();
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
