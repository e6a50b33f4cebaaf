package io.floe.application.service.access;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.floe.application.model.CreatePrincipalCommand;
import io.floe.application.model.PrincipalDetails;
import io.floe.application.security.OrgContext;
import io.floe.application.testbed.Testbed;
import io.floe.domain.Action;
import io.floe.domain.Namespace;
import io.floe.domain.Org;
import io.floe.domain.OrgName;
import io.floe.domain.Principal;
import io.floe.domain.Role;
import io.floe.domain.Visibility;
import java.util.Optional;
import java.util.UUID;
import org.apache.iceberg.exceptions.AlreadyExistsException;
import org.apache.iceberg.exceptions.ForbiddenException;
import org.apache.iceberg.exceptions.NotFoundException;
import org.apache.iceberg.exceptions.UnprocessableEntityException;
import org.junit.jupiter.api.Test;

/** Members and teams: admins add, promote and remove members; nobody changes themselves. */
class MemberServiceTest {
  private final Testbed bed = new Testbed();
  private final OrgMembers members = new OrgMembers(bed.store.identities());
  private final MemberService service = new MemberService(bed.store.identities(), members,
      bed.policy(), bed.publisher(), bed.ids);
  private final TeamService teams = new TeamService(bed.store.identities(), members,
      bed.policy(), bed.publisher());
  private final OrgContext ada = bed.member("ada", Role.MEMBER);

  private PrincipalDetails create(Principal.Kind kind, String name, Optional<String> externalId) {
    return service.createPrincipal(bed.admin,
        new CreatePrincipalCommand(kind, name, Role.MEMBER, externalId));
  }

  private UUID id(OrgContext context) {
    return context.caller().principal().id();
  }

  @Test
  void anAdminAddsAMemberWhomEveryMemberSees() {
    PrincipalDetails bob = create(Principal.Kind.USER, "bob", Optional.of("bob@example.com"));
    assertThat(service.members(ada, Optional.of(Principal.Kind.USER)))
        .extracting(member -> member.principal().name()).containsExactly("ada", "admin", "bob");
    assertThat(bed.store.identities().usersByExternalId("bob@example.com"))
        .containsExactly(bob.principal());
    assertThatThrownBy(() -> service.createPrincipal(ada, new CreatePrincipalCommand(
        Principal.Kind.USER, "eve", Role.MEMBER, Optional.empty())))
        .isInstanceOf(ForbiddenException.class);
  }

  @Test
  void anExternalIdTakenByAnotherUserIsRefusedAndNothingIsAdded() {
    create(Principal.Kind.USER, "bob", Optional.of("sub-1"));
    assertThatThrownBy(() -> create(Principal.Kind.USER, "bobby", Optional.of("sub-1")))
        .isInstanceOf(AlreadyExistsException.class);
    assertThat(service.members(bed.admin, Optional.empty()))
        .extracting(member -> member.principal().name()).doesNotContain("bobby");
  }

  @Test
  void anExternalIdIsTheOrgsOwnSoAnotherOrgsUserNeitherBlocksNorShowsThroughIt() {
    Org other = new Org(bed.ids.newId(), new OrgName("elsewhere"), true);
    bed.store.orgs().insertOrg(other);
    Principal theirs = new Principal(bed.ids.newId(), Principal.Kind.USER, "bob-elsewhere");
    bed.store.identities().createMember(theirs, other.id(), Role.MEMBER,
        Optional.of("bob@example.com"));

    PrincipalDetails ours = create(Principal.Kind.USER, "bob", Optional.of("bob@example.com"));

    assertThat(ours.externalId()).contains("bob@example.com");
    assertThat(bed.store.identities().usersByExternalId("bob@example.com"))
        .containsExactlyInAnyOrder(theirs, ours.principal());
    assertThatThrownBy(() -> create(Principal.Kind.USER, "bobby", Optional.of("bob@example.com")))
        .isInstanceOf(AlreadyExistsException.class)
        .hasMessageNotContaining("elsewhere").hasMessageNotContaining("bob-elsewhere");
  }

  @Test
  void rolesChangeForOthersButNeverForTeamsOrOneself() {
    assertThat(service.setRole(bed.admin, id(ada), Role.ADMIN).role()).isEqualTo(Role.ADMIN);
    Principal crew = bed.team("crew");
    assertThatThrownBy(() -> service.setRole(bed.admin, crew.id(), Role.ADMIN))
        .isInstanceOf(UnprocessableEntityException.class);
    assertThatThrownBy(() -> service.setRole(bed.admin, id(bed.admin), Role.MEMBER))
        .isInstanceOf(ForbiddenException.class);
    assertThatThrownBy(() -> service.setRole(bed.admin, UUID.randomUUID(), Role.ADMIN))
        .isInstanceOf(NotFoundException.class);
  }

  @Test
  void aRemovedMemberLosesItsGrants() {
    Namespace sales = bed.namespace("sales", Visibility.PRIVATE);
    bed.grant(id(ada), sales, Optional.empty(), Action.READ);
    service.removeMember(bed.admin, id(ada));
    assertThat(service.members(bed.admin, Optional.empty()))
        .extracting(member -> member.principal().id()).doesNotContain(id(ada));
    assertThat(bed.store.grants().heldWithin(id(ada), sales.id())).isEmpty();
    assertThatThrownBy(() -> service.removeMember(bed.admin, id(bed.admin)))
        .isInstanceOf(ForbiddenException.class);
  }

  @Test
  void teamsHoldUsersOnly() {
    Principal crew = bed.team("crew");
    PrincipalDetails client = create(Principal.Kind.API_CLIENT, "ci", Optional.empty());
    teams.addTeamMember(bed.admin, crew.id(), id(ada));
    assertThat(teams.teamMembers(ada, crew.id())).extracting(PrincipalDetails::principal)
        .containsExactly(ada.caller().principal());
    assertThatThrownBy(() -> teams.addTeamMember(bed.admin, crew.id(), client.principal().id()))
        .isInstanceOf(UnprocessableEntityException.class);
    assertThatThrownBy(() -> teams.addTeamMember(ada, crew.id(), id(ada)))
        .isInstanceOf(ForbiddenException.class);
    assertThatThrownBy(() -> teams.addTeamMember(bed.admin, id(ada), id(ada)))
        .isInstanceOf(NotFoundException.class).hasMessageContaining("team");
    teams.removeTeamMember(bed.admin, crew.id(), id(ada));
    assertThatThrownBy(() -> teams.removeTeamMember(bed.admin, crew.id(), id(ada)))
        .isInstanceOf(NotFoundException.class);
  }
}
