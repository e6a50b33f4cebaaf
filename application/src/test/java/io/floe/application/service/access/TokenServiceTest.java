package io.floe.application.service.access;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.floe.application.model.IssueTokenCommand;
import io.floe.application.model.IssuedToken;
import io.floe.application.security.Caller;
import io.floe.application.security.OrgContext;
import io.floe.application.testbed.Testbed;
import io.floe.domain.ApiToken;
import io.floe.domain.Membership;
import io.floe.domain.Org;
import io.floe.domain.OrgName;
import io.floe.domain.Principal;
import io.floe.domain.Role;
import java.time.Duration;
import java.util.Optional;
import org.apache.iceberg.exceptions.ForbiddenException;
import org.apache.iceberg.exceptions.NotAuthorizedException;
import org.apache.iceberg.exceptions.NotFoundException;
import org.apache.iceberg.exceptions.UnprocessableEntityException;
import org.junit.jupiter.api.Test;

/**
 * API tokens: issued by admins to users and API clients created in their org, shown once, kept
 * as a hash; a token authenticates its holder until it expires or is revoked.
 */
class TokenServiceTest {
  private final Testbed bed = new Testbed();
  private final OrgMembers members = new OrgMembers(bed.store.identities());
  private final TokenService tokens = new TokenService(bed.store.identities(), members,
      bed.policy(), bed.ids, bed.clock, bed.publisher());
  private final AuthenticationService authentication =
      new AuthenticationService(bed.store.principals(), bed.store.orgs(), bed.clock);
  private final OrgContext ada = bed.member("ada", Role.MEMBER);

  private IssuedToken issue(Optional<Duration> lifetime) {
    return tokens.issueToken(bed.admin, new IssueTokenCommand(ada.caller().principal().id(),
        lifetime.map(bed.clock.instant()::plus), Optional.of("laptop")));
  }

  @Test
  void anIssuedTokenAuthenticatesItsHolderAndIsKeptOnlyAsAHash() {
    IssuedToken issued = issue(Optional.empty());
    assertThat(issued.secret()).startsWith(ApiToken.PREFIX).hasSize(ApiToken.PREFIX.length() + 64);
    assertThat(authentication.authenticate(issued.secret()).principal())
        .isEqualTo(ada.caller().principal());
    assertThat(bed.store.principals().findTokenByHash(ApiToken.hash(issued.secret())))
        .map(ApiToken::id).contains(issued.details().id());
    // Listed without its secret, with the use the authentication just recorded.
    assertThat(tokens.tokens(bed.admin, Optional.of(ada.caller().principal().id())))
        .singleElement().satisfies(listed -> {
          assertThat(listed.id()).isEqualTo(issued.details().id());
          assertThat(listed.description()).contains("laptop");
          assertThat(listed.lastUsedAt()).contains(bed.clock.instant());
        });
  }

  @Test
  void eachTokenHasItsOwnSecret() {
    assertThat(issue(Optional.empty()).secret()).isNotEqualTo(issue(Optional.empty()).secret());
  }

  @Test
  void anExpiredTokenNoLongerAuthenticates() {
    IssuedToken issued = issue(Optional.of(Duration.ofHours(1)));
    bed.clock.advance(Duration.ofHours(1));
    assertThatThrownBy(() -> authentication.authenticate(issued.secret()))
        .isInstanceOf(NotAuthorizedException.class);
  }

  @Test
  void aRevokedTokenNoLongerAuthenticatesAndKeepsItsFirstRevocation() {
    IssuedToken issued = issue(Optional.empty());
    assertThat(tokens.revokeToken(bed.admin, issued.details().id()).revokedAt())
        .contains(bed.clock.instant());
    bed.clock.advance(Duration.ofMinutes(5));
    assertThat(tokens.revokeToken(bed.admin, issued.details().id()).revokedAt())
        .contains(bed.clock.instant().minus(Duration.ofMinutes(5)));
    assertThatThrownBy(() -> authentication.authenticate(issued.secret()))
        .isInstanceOf(NotAuthorizedException.class);
  }

  @Test
  void onlyAdminsIssueListAndRevoke() {
    IssuedToken issued = issue(Optional.empty());
    assertThatThrownBy(() -> tokens.issueToken(ada, new IssueTokenCommand(
        ada.caller().principal().id(), Optional.empty(), Optional.empty())))
        .isInstanceOf(ForbiddenException.class);
    assertThatThrownBy(() -> tokens.tokens(ada, Optional.empty()))
        .isInstanceOf(ForbiddenException.class);
    assertThatThrownBy(() -> tokens.revokeToken(ada, issued.details().id()))
        .isInstanceOf(ForbiddenException.class);
  }

  @Test
  void tokensGoOnlyToUsersAndClientsCreatedInTheOrgAndExpireInTheFuture() {
    Principal crew = bed.team("crew");
    assertThatThrownBy(() -> tokens.issueToken(bed.admin,
        new IssueTokenCommand(crew.id(), Optional.empty(), Optional.empty())))
        .isInstanceOf(UnprocessableEntityException.class);
    assertThatThrownBy(() -> tokens.issueToken(bed.admin, new IssueTokenCommand(
        ada.caller().principal().id(), Optional.of(bed.clock.instant()), Optional.empty())))
        .isInstanceOf(UnprocessableEntityException.class).hasMessageContaining("future");

    // A member who was created in another org is that org's to manage.
    Org home = new Org(bed.ids.newId(), new OrgName("home"), true);
    bed.store.orgs().insertOrg(home);
    Principal guest = new Principal(bed.ids.newId(), Principal.Kind.USER, "guest");
    bed.store.identities().createMember(guest, home.id(), Role.MEMBER, Optional.empty());
    bed.store.principals().insertMembership(new Membership(bed.org.id(), guest.id(),
        Role.MEMBER));
    assertThatThrownBy(() -> tokens.issueToken(bed.admin,
        new IssueTokenCommand(guest.id(), Optional.empty(), Optional.empty())))
        .isInstanceOf(NotFoundException.class);
  }

  @Test
  void aTokenOfAnotherOrgIsNotFoundHere() {
    IssuedToken issued = issue(Optional.empty());
    Org other = new Org(bed.ids.newId(), new OrgName("other"), true);
    bed.store.orgs().insertOrg(other);
    Principal otherAdmin = new Principal(bed.ids.newId(), Principal.Kind.USER, "root");
    bed.store.identities().createMember(otherAdmin, other.id(), Role.ADMIN, Optional.empty());
    OrgContext admin = new OrgContext(new Caller(otherAdmin), other,
        new Membership(other.id(), otherAdmin.id(), Role.ADMIN));
    assertThatThrownBy(() -> tokens.revokeToken(admin, issued.details().id()))
        .isInstanceOf(NotFoundException.class);
    assertThat(authentication.authenticate(issued.secret())).isNotNull();
  }
}
