package io.floe.application.port.out.contract;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.floe.application.model.PrincipalDetails;
import io.floe.application.model.TokenDetails;
import io.floe.application.port.out.IdentityDirectory;
import io.floe.domain.Action;
import io.floe.domain.ApiToken;
import io.floe.domain.Membership;
import io.floe.domain.Namespace;
import io.floe.domain.Org;
import io.floe.domain.Principal;
import io.floe.domain.Role;
import java.time.Instant;
import java.util.Optional;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * {@link IdentityDirectory}: a principal is created in its home org, whose admins manage it;
 * members are listed by kind and name; teams hold users; tokens are those of principals homed in
 * the org, newest first; the first revocation of a token stays.
 */
public abstract class IdentityDirectoryContract extends PortContract {
  private IdentityDirectory identities() {
    return ports().identities();
  }

  @Test
  void aMemberIsCreatedInItsHomeOrg() {
    Principal user = new Principal(UUID.randomUUID(), Principal.Kind.USER, "ada");
    identities().createMember(user, fixture.org.id(), Role.ADMIN, Optional.of("sub-" + user.id()));
    assertThat(identities().member(fixture.org.id(), user.id())).contains(
        new PrincipalDetails(user, Role.ADMIN, Optional.of("sub-" + user.id())));
    assertThat(identities().isHomedIn(user.id(), fixture.org.id())).isTrue();
    assertThat(identities().isHomedIn(user.id(), fixture.newOrg().id())).isFalse();
    assertThat(ports().principals().findMembership(fixture.org.id(), user.id()))
        .contains(new Membership(fixture.org.id(), user.id(), Role.ADMIN));
  }

  @Test
  void onlyAUserIsFoundByItsExternalId() {
    Principal user = new Principal(UUID.randomUUID(), Principal.Kind.USER, "ada");
    Principal team = new Principal(UUID.randomUUID(), Principal.Kind.TEAM, "crew");
    identities().createMember(user, fixture.org.id(), Role.MEMBER, Optional.of("u-" + user.id()));
    identities().createMember(team, fixture.org.id(), Role.MEMBER, Optional.of("t-" + team.id()));
    assertThat(identities().usersByExternalId("u-" + user.id())).containsExactly(user);
    assertThat(identities().usersByExternalId("t-" + team.id())).isEmpty();
    assertThat(identities().usersByExternalId("nobody-" + UUID.randomUUID())).isEmpty();
    assertThat(identities().externalIdOf(user.id())).contains("u-" + user.id());
    assertThat(identities().externalIdOf(fixture.user("plain").id())).isEmpty();
  }

  @Test
  void anExternalIdNamesOnePrincipalPerOrg() {
    String externalId = "sub-" + UUID.randomUUID();
    Principal ada = new Principal(UUID.randomUUID(), Principal.Kind.USER, "ada");
    identities().createMember(ada, fixture.org.id(), Role.MEMBER, Optional.of(externalId));
    assertThatThrownBy(() -> identities().createMember(
        new Principal(UUID.randomUUID(), Principal.Kind.USER, "eve"), fixture.org.id(),
        Role.MEMBER, Optional.of(externalId))).isInstanceOf(RuntimeException.class);

    Principal adaElsewhere = new Principal(UUID.randomUUID(), Principal.Kind.USER, "ada");
    identities().createMember(adaElsewhere, fixture.newOrg().id(), Role.MEMBER,
        Optional.of(externalId));
    assertThat(identities().usersByExternalId(externalId))
        .containsExactlyInAnyOrder(ada, adaElsewhere);
  }

  @Test
  void membersAreListedByKindThenName() {
    Principal bob = fixture.user("bob");
    Principal crew = fixture.team("crew");
    Principal ci = fixture.member("ci", Principal.Kind.API_CLIENT, Role.ADMIN);
    Principal ada = fixture.user("ada");
    assertThat(identities().members(fixture.org.id(), Optional.empty()))
        .extracting(PrincipalDetails::principal).containsExactly(ci, crew, ada, bob);
    assertThat(identities().members(fixture.org.id(), Optional.of(Principal.Kind.USER)))
        .extracting(PrincipalDetails::principal).containsExactly(ada, bob);
  }

  @Test
  void aMemberOfTwoOrgsIsManagedOnlyInItsHomeOrg() {
    Org other = fixture.newOrg();
    Principal guest = new Principal(UUID.randomUUID(), Principal.Kind.USER, "guest");
    identities().createMember(guest, other.id(), Role.MEMBER, Optional.empty());
    assertThat(identities().member(fixture.org.id(), guest.id())).isEmpty();
    ports().principals().insertMembership(new Membership(fixture.org.id(), guest.id(),
        Role.MEMBER));
    assertThat(identities().member(fixture.org.id(), guest.id())).isPresent();
    assertThat(identities().isHomedIn(guest.id(), fixture.org.id())).isFalse();
  }

  @Test
  void aRoleChangesInOneOrgOnly() {
    Principal user = fixture.user("ada");
    Org other = fixture.newOrg();
    ports().principals().insertMembership(new Membership(other.id(), user.id(), Role.MEMBER));
    identities().setRole(fixture.org.id(), user.id(), Role.ADMIN);
    assertThat(identities().member(fixture.org.id(), user.id()).orElseThrow().role())
        .isEqualTo(Role.ADMIN);
    assertThat(identities().member(other.id(), user.id()).orElseThrow().role())
        .isEqualTo(Role.MEMBER);
  }

  @Test
  void removingAMemberEndsItsMembershipAndItsGrantsInThatOrgOnly() {
    Principal user = fixture.user("ada");
    Namespace ns = fixture.namespace("ns");
    fixture.grant(user, ns, Optional.empty(), Action.READ);
    Org other = fixture.newOrg();
    ports().principals().insertMembership(new Membership(other.id(), user.id(), Role.MEMBER));

    identities().removeMember(fixture.org.id(), user.id());

    assertThat(identities().member(fixture.org.id(), user.id())).isEmpty();
    assertThat(ports().grants().list(fixture.org.id(), Optional.empty(), Optional.of(user.id())))
        .isEmpty();
    assertThat(identities().member(other.id(), user.id())).isPresent();
    assertThat(ports().principals().findPrincipal(user.id())).contains(user);
  }

  @Test
  void aTeamHoldsEachUserOnce() {
    Principal team = fixture.team("crew");
    Principal bob = fixture.user("bob");
    Principal ada = fixture.user("ada");
    assertThat(identities().addTeamMember(team.id(), bob.id())).isTrue();
    assertThat(identities().addTeamMember(team.id(), ada.id())).isTrue();
    assertThat(identities().addTeamMember(team.id(), bob.id())).isFalse();
    assertThat(identities().teamMembers(fixture.org.id(), team.id()))
        .extracting(PrincipalDetails::principal).containsExactly(ada, bob);
    assertThat(identities().removeTeamMember(team.id(), bob.id())).isTrue();
    assertThat(identities().removeTeamMember(team.id(), bob.id())).isFalse();
    assertThat(identities().teamMembers(fixture.org.id(), team.id()))
        .extracting(PrincipalDetails::principal).containsExactly(ada);
  }

  @Test
  void aTeamListsOnlyItsMembersInTheOrg() {
    Principal team = fixture.team("crew");
    Principal outsider = new Principal(UUID.randomUUID(), Principal.Kind.USER, "outsider");
    identities().createMember(outsider, fixture.newOrg().id(), Role.MEMBER, Optional.empty());
    identities().addTeamMember(team.id(), outsider.id());
    assertThat(identities().teamMembers(fixture.org.id(), team.id())).isEmpty();
  }

  @Test
  void tokensAreThoseOfPrincipalsHomedInTheOrgNewestFirst() {
    Principal ada = fixture.user("ada");
    Principal bob = fixture.user("bob");
    TokenDetails older = issue(ada, fixture.now, Optional.of("laptop"));
    TokenDetails newer = issue(bob, fixture.now.plusSeconds(10), Optional.empty());
    Principal guest = new Principal(UUID.randomUUID(), Principal.Kind.USER, "guest");
    Org other = fixture.newOrg();
    identities().createMember(guest, other.id(), Role.MEMBER, Optional.empty());
    ports().principals().insertMembership(new Membership(fixture.org.id(), guest.id(),
        Role.MEMBER));
    TokenDetails guests = issue(guest, fixture.now.plusSeconds(20), Optional.empty());

    assertThat(identities().tokens(fixture.org.id(), Optional.empty()))
        .containsExactly(newer, older);
    assertThat(identities().tokens(fixture.org.id(), Optional.of(ada.id())))
        .containsExactly(older);
    assertThat(identities().token(fixture.org.id(), older.id())).contains(older);
    assertThat(identities().token(fixture.org.id(), guests.id())).isEmpty();
    assertThat(identities().token(other.id(), guests.id())).contains(guests);
  }

  @Test
  void aTokensFirstRevocationStays() {
    TokenDetails token = issue(fixture.user("ada"), fixture.now, Optional.empty());
    identities().revokeToken(token.id(), fixture.now.plusSeconds(5));
    identities().revokeToken(token.id(), fixture.now.plusSeconds(50));
    assertThat(identities().token(fixture.org.id(), token.id()).orElseThrow().revokedAt())
        .contains(fixture.now.plusSeconds(5));
    assertThat(ports().principals().findTokenByHash(hashOf(token)).orElseThrow().revokedAt())
        .contains(fixture.now.plusSeconds(5));
  }

  private TokenDetails issue(Principal holder, Instant createdAt, Optional<String> description) {
    UUID id = UUID.randomUUID();
    identities().insertToken(new ApiToken(id, holder.id(), ApiToken.hash("ema_" + id),
        createdAt, Optional.of(createdAt.plusSeconds(3600)), Optional.empty()), description);
    return new TokenDetails(id, holder.id(), description, createdAt,
        Optional.of(createdAt.plusSeconds(3600)), Optional.empty(), Optional.empty());
  }

  private static String hashOf(TokenDetails token) {
    return ApiToken.hash("ema_" + token.id());
  }
}
