package io.floe.adapters.persistence.jooq;

import static io.floe.adapters.persistence.jooq.schema.Tables.MEMBERSHIPS;
import static io.floe.adapters.persistence.jooq.schema.Tables.ORGS;

import io.floe.application.model.MemberOrg;
import io.floe.application.port.out.OrgMembershipDirectory;
import io.floe.domain.Role;
import java.util.List;
import java.util.UUID;
import org.jooq.DSLContext;

/** A principal's orgs from the memberships table. */
public final class JooqOrgMembershipDirectory implements OrgMembershipDirectory {
  private final DSLContext dsl;

  public JooqOrgMembershipDirectory(Database database) {
    this.dsl = database.dsl();
  }

  @Override
  public List<MemberOrg> orgsOf(UUID principalId) {
    return dsl.select(ORGS.asterisk(), MEMBERSHIPS.ROLE)
        .from(ORGS).join(MEMBERSHIPS).on(MEMBERSHIPS.ORG_ID.eq(ORGS.ID))
        .where(MEMBERSHIPS.PRINCIPAL_ID.eq(principalId))
        .orderBy(ORGS.NAME)
        .fetch(row -> new MemberOrg(JooqOrgStore.toOrg(row.into(ORGS)),
            Times.instant(row.get(ORGS.CREATED_AT)), Role.valueOf(row.get(MEMBERSHIPS.ROLE))));
  }
}
