package io.floe.application.port.out.contract;

import static org.assertj.core.api.Assertions.assertThat;

import io.floe.application.model.MemberOrg;
import io.floe.domain.Membership;
import io.floe.domain.Org;
import io.floe.domain.Principal;
import io.floe.domain.Role;
import java.time.Duration;
import java.util.Comparator;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/** {@link io.floe.application.port.out.OrgMembershipDirectory}: a principal's orgs by name. */
public abstract class OrgMembershipDirectoryContract extends PortContract {
  @Test
  void aPrincipalsOrgsComeByNameWithItsRoleInEach() {
    Principal user = fixture.member("ada", Principal.Kind.USER, Role.ADMIN);
    Org second = fixture.newOrg();
    Org third = fixture.newOrg();
    ports().principals().insertMembership(new Membership(second.id(), user.id(), Role.MEMBER));
    ports().principals().insertMembership(new Membership(third.id(), user.id(), Role.ADMIN));

    List<MemberOrg> orgs = ports().memberships().orgsOf(user.id());

    List<Org> byName = List.of(fixture.org, second, third).stream()
        .sorted(Comparator.comparing(org -> org.name().value())).toList();
    assertThat(orgs).extracting(MemberOrg::org).containsExactlyElementsOf(byName);
    assertThat(orgs).filteredOn(member -> member.org().equals(second))
        .extracting(MemberOrg::role).containsExactly(Role.MEMBER);
    assertThat(orgs).filteredOn(member -> member.org().equals(fixture.org))
        .extracting(MemberOrg::role).containsExactly(Role.ADMIN);
    // Stamped by the database when the org was inserted, during this test.
    assertThat(orgs).allSatisfy(member -> assertThat(member.createdAt())
        .isBetween(fixture.now.minus(Duration.ofMinutes(5)),
            fixture.now.plus(Duration.ofMinutes(5))));
  }

  @Test
  void aPrincipalWithoutMembershipsHasNoOrgs() {
    assertThat(ports().memberships().orgsOf(UUID.randomUUID())).isEmpty();
  }
}
