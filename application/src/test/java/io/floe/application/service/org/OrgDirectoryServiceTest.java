package io.floe.application.service.org;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.floe.application.model.MemberOrg;
import io.floe.application.security.Caller;
import io.floe.application.security.OrgContext;
import io.floe.application.testbed.Testbed;
import io.floe.domain.Membership;
import io.floe.domain.Org;
import io.floe.domain.OrgName;
import io.floe.domain.Principal;
import io.floe.domain.Role;
import java.util.List;
import java.util.Optional;
import org.apache.iceberg.exceptions.NoSuchWarehouseException;
import org.junit.jupiter.api.Test;

/** The orgs a caller belongs to: each identity's own, by name, one entry per org. */
class OrgDirectoryServiceTest {
  private final Testbed bed = new Testbed();
  private final OrgDirectoryService orgs = new OrgDirectoryService(bed.store.memberships());
  private final Org beta = org("beta");
  private final Org alpha = org("alpha");

  private Org org(String name) {
    Org org = new Org(bed.ids.newId(), new OrgName(name), true);
    bed.store.orgs().insertOrg(org);
    return org;
  }

  private Principal userOf(Org org, String name, Role role) {
    Principal user = new Principal(bed.ids.newId(), Principal.Kind.USER, name);
    bed.store.identities().createMember(user, org.id(), role, Optional.of("person-1"));
    return user;
  }

  @Test
  void aTokensCallerSeesTheOneOrgItsPrincipalBelongsTo() {
    List<MemberOrg> member = orgs.orgsOf(bed.admin.caller());

    assertThat(member).singleElement().satisfies(org -> {
      assertThat(org.org()).isEqualTo(bed.org);
      assertThat(org.role()).isEqualTo(Role.ADMIN);
    });
  }

  @Test
  void aPersonWithAUserInSeveralOrgsSeesEachOnceByName() {
    Principal inBeta = userOf(beta, "pat", Role.MEMBER);
    Principal inAlpha = userOf(alpha, "pat", Role.ADMIN);
    Caller person = new Caller(inBeta, List.of(inBeta, inAlpha));

    assertThat(orgs.orgsOf(person)).extracting(member -> member.org().name().value())
        .containsExactly("alpha", "beta");
    assertThat(orgs.orgsOf(person)).filteredOn(member -> member.org().equals(alpha))
        .singleElement().satisfies(member -> assertThat(member.role()).isEqualTo(Role.ADMIN));
  }

  @Test
  void anOrgTheCallerIsNotInDoesNotExistForIt() {
    Principal inBeta = userOf(beta, "pat", Role.MEMBER);
    OrgContext pretending = new OrgContext(new Caller(inBeta), alpha,
        new Membership(alpha.id(), inBeta.id(), Role.MEMBER));

    assertThatThrownBy(() -> orgs.get(pretending)).isInstanceOf(NoSuchWarehouseException.class);
    assertThat(orgs.get(new OrgContext(new Caller(inBeta), beta,
        new Membership(beta.id(), inBeta.id(), Role.MEMBER))).org()).isEqualTo(beta);
  }
}
