package io.floe.application.port.out.inmemory;

import io.floe.application.model.MemberOrg;
import io.floe.application.port.out.OrgMembershipDirectory;
import io.floe.application.port.out.inmemory.InMemoryDatabase.MembershipKey;
import java.util.Comparator;
import java.util.List;
import java.util.UUID;

/** A principal's orgs from the in-memory memberships. */
public final class InMemoryOrgMembershipDirectory implements OrgMembershipDirectory {
  private final InMemoryDatabase db;

  public InMemoryOrgMembershipDirectory(InMemoryDatabase db) {
    this.db = db;
  }

  @Override
  public List<MemberOrg> orgsOf(UUID principalId) {
    return db.statement(() -> db.orgs.values().stream()
        .flatMap(row -> db.memberships.get(new MembershipKey(row.org().id(), principalId))
            .map(role -> new MemberOrg(row.org(), row.createdAt(), role)).stream())
        .sorted(Comparator.comparing(member -> member.org().name().value()))
        .toList());
  }
}
