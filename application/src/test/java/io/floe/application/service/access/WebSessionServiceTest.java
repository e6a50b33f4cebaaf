package io.floe.application.service.access;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.floe.application.model.IssueTokenCommand;
import io.floe.application.model.IssuedToken;
import io.floe.application.port.in.access.WebSessionsUseCase.ActiveSession;
import io.floe.application.port.in.access.WebSessionsUseCase.StartedSession;
import io.floe.application.port.out.IdentityTokens;
import io.floe.application.security.OrgContext;
import io.floe.application.testbed.Testbed;
import io.floe.domain.ApiToken;
import io.floe.domain.Role;
import java.time.Duration;
import java.util.Optional;
import org.apache.iceberg.exceptions.NotAuthorizedException;
import org.junit.jupiter.api.Test;

/**
 * The web app's sessions: started with a valid API token only, resumed until they expire (as the
 * clock moves), are signed out, or the token that started them is revoked or expires.
 */
class WebSessionServiceTest {
  private static final Duration LIFETIME = Duration.ofHours(8);

  private final Testbed bed = new Testbed();
  private final TokenService tokens = new TokenService(bed.store.identities(),
      new OrgMembers(bed.store.identities()), bed.policy(), bed.ids, bed.clock, bed.publisher());
  private final AuthenticationService authentication =
      new AuthenticationService(bed.store.principals(), bed.store.orgs(), bed.clock);
  private final WebSessionService sessions = new WebSessionService(authentication,
      IdentityTokens.NONE, bed.store.identities(), bed.store.principals(),
      bed.store.webSessions(), bed.ids, bed.clock, LIFETIME);
  private final OrgContext ada = bed.member("ada", Role.MEMBER);

  private IssuedToken token(Optional<Duration> lifetime) {
    return tokens.issueToken(bed.admin, new IssueTokenCommand(ada.caller().principal().id(),
        lifetime.map(bed.clock.instant()::plus), Optional.empty()));
  }

  @Test
  void aValidTokenStartsASessionThatResumesAsItsHolder() {
    StartedSession started = sessions.signIn(token(Optional.empty()).secret());
    ActiveSession active = sessions.resume(started.secret());

    assertThat(active.caller().principal()).isEqualTo(ada.caller().principal());
    assertThat(active.csrfToken()).isNotBlank().isNotEqualTo(started.secret());
    assertThat(started.expiresAt()).isEqualTo(bed.clock.instant().plus(LIFETIME));
  }

  @Test
  void anInvalidTokenStartsNothingAndAnUnknownSecretResumesNothing() {
    assertThatThrownBy(() -> sessions.signIn("floe_forged"))
        .isInstanceOf(NotAuthorizedException.class);
    assertThatThrownBy(() -> sessions.signIn(ApiToken.PREFIX + "0".repeat(64)))
        .isInstanceOf(NotAuthorizedException.class);
    assertThat(bed.store.webSessions().findBySecretHash(ApiToken.hash(ApiToken.PREFIX
        + "0".repeat(64)))).isEmpty();
    assertThatThrownBy(() -> sessions.resume("no-such-secret"))
        .isInstanceOf(NotAuthorizedException.class);
    assertThatThrownBy(() -> sessions.resume(" "))
        .isInstanceOf(NotAuthorizedException.class);
  }

  @Test
  void aSessionEndsWhenItsLifetimeHasPassed() {
    StartedSession started = sessions.signIn(token(Optional.empty()).secret());

    bed.clock.advance(LIFETIME.minusSeconds(1));
    assertThat(sessions.resume(started.secret()).caller()).isNotNull();
    bed.clock.advance(Duration.ofSeconds(1));
    assertThatThrownBy(() -> sessions.resume(started.secret()))
        .isInstanceOf(NotAuthorizedException.class);
  }

  @Test
  void aSessionLivesNoLongerThanTheTokenThatStartedIt() {
    StartedSession started = sessions.signIn(token(Optional.of(Duration.ofHours(1))).secret());

    assertThat(started.expiresAt()).isEqualTo(bed.clock.instant().plus(Duration.ofHours(1)));
    bed.clock.advance(Duration.ofHours(1));
    assertThatThrownBy(() -> sessions.resume(started.secret()))
        .isInstanceOf(NotAuthorizedException.class);
  }

  @Test
  void revokingTheTokenEndsItsSessions() {
    IssuedToken issued = token(Optional.empty());
    StartedSession started = sessions.signIn(issued.secret());

    tokens.revokeToken(bed.admin, issued.details().id());

    assertThatThrownBy(() -> sessions.resume(started.secret()))
        .isInstanceOf(NotAuthorizedException.class);
  }

  @Test
  void signingOutEndsTheSessionAndAnUnknownOneIsLeftAlone() {
    StartedSession started = sessions.signIn(token(Optional.empty()).secret());
    StartedSession other = sessions.signIn(token(Optional.empty()).secret());

    sessions.signOut(started.secret());
    sessions.signOut("unknown");
    sessions.signOut(null);

    assertThatThrownBy(() -> sessions.resume(started.secret()))
        .isInstanceOf(NotAuthorizedException.class);
    assertThat(sessions.resume(other.secret()).caller().principal())
        .isEqualTo(ada.caller().principal());
  }

  @Test
  void noIdentityProviderMeansNoIdTokenSignIn() {
    assertThatThrownBy(() -> sessions.signInWithIdToken("eyJ.any.token"))
        .isInstanceOf(NotAuthorizedException.class);
    assertThatThrownBy(() -> new WebSessionService(authentication, IdentityTokens.NONE,
        bed.store.identities(), bed.store.principals(), bed.store.webSessions(), bed.ids,
        bed.clock, Duration.ZERO)).isInstanceOf(IllegalArgumentException.class);
  }
}
