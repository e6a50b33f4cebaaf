package io.floe.application.service.access;

import io.floe.application.port.in.access.AuthenticateUseCase;
import io.floe.application.port.in.access.WebSessionsUseCase;
import io.floe.application.port.out.ExternalIdentities;
import io.floe.application.port.out.IdGenerator;
import io.floe.application.port.out.IdentityTokens;
import io.floe.application.port.out.PrincipalStore;
import io.floe.application.port.out.WebSessionStore;
import io.floe.application.security.Caller;
import io.floe.domain.ApiToken;
import io.floe.domain.Principal;
import io.floe.domain.WebSession;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Base64;
import java.util.Optional;
import org.apache.iceberg.exceptions.NotAuthorizedException;

/**
 * Web sessions: started by the same authentication as the API (so a token the API refuses signs
 * no one in), kept as hashes, ended by signing out, by expiry, or by revoking the API token that
 * started them.
 */
public final class WebSessionService implements WebSessionsUseCase {
  private static final int SECRET_BYTES = 32;
  private static final String ENDED = "Signed out or expired: sign in again";
  /** Expired sessions are kept this long, so a stale cookie still reads as "expired". */
  private static final Duration KEEP_EXPIRED = Duration.ofDays(1);

  private final AuthenticateUseCase authentication;
  private final IdentityTokens idTokens;
  private final ExternalIdentities externalIdentities;
  private final PrincipalStore principals;
  private final WebSessionStore sessions;
  private final IdGenerator ids;
  private final Clock clock;
  private final Duration lifetime;

  public WebSessionService(AuthenticateUseCase authentication, IdentityTokens idTokens,
      ExternalIdentities externalIdentities, PrincipalStore principals,
      WebSessionStore sessions, IdGenerator ids, Clock clock, Duration lifetime) {
    if (lifetime.isNegative() || lifetime.isZero()) {
      throw new IllegalArgumentException("a session lifetime must be positive");
    }
    this.authentication = authentication;
    this.idTokens = idTokens;
    this.externalIdentities = externalIdentities;
    this.principals = principals;
    this.sessions = sessions;
    this.ids = ids;
    this.clock = clock;
    this.lifetime = lifetime;
  }

  @Override
  public StartedSession signIn(String bearerToken) {
    Caller caller = authentication.authenticate(bearerToken);
    Optional<ApiToken> token = bearerToken.strip().startsWith(ApiToken.PREFIX)
        ? principals.findTokenByHash(ApiToken.hash(bearerToken.strip())) : Optional.empty();
    return start(caller.principal(), token);
  }

  @Override
  public StartedSession signInWithIdToken(String idToken) {
    Caller user = Optional.ofNullable(idToken).flatMap(idTokens::verify)
        .flatMap(authentication::callerNamed)
        .orElseThrow(() -> new NotAuthorizedException(
            "The identity provider's answer names no user of this server"));
    return start(user.principal(), Optional.empty());
  }

  @Override
  public ActiveSession resume(String secret) {
    if (secret == null || secret.isBlank()) {
      throw new NotAuthorizedException("Sign in first");
    }
    Instant now = clock.instant();
    WebSessionStore.Found found = sessions.findBySecretHash(ApiToken.hash(secret))
        .filter(candidate -> candidate.session().isActiveAt(now))
        .filter(candidate -> candidate.session().apiTokenId().isEmpty()
            || candidate.apiToken().filter(token -> token.isUsableAt(now)).isPresent())
        .orElseThrow(() -> new NotAuthorizedException(ENDED));
    Principal principal = principals.findPrincipal(found.session().principalId())
        .orElseThrow(() -> new NotAuthorizedException(ENDED));
    found.apiToken().ifPresent(token -> principals.touchToken(token.id(), now));
    return new ActiveSession(callerOf(principal, found.session()), found.session().csrfToken(),
        found.session().expiresAt());
  }

  @Override
  public void signOut(String secret) {
    if (secret != null && !secret.isBlank()) {
      sessions.end(ApiToken.hash(secret), clock.instant());
    }
  }

  /**
   * Who a session's holder is. One an identity provider vouched for (no API token started it) is
   * the person, as in the API: every org's user with the same external id. One an API token
   * started is that token's principal alone: an external id an org's admin set on a principal
   * proves nothing about who holds its tokens.
   */
  private Caller callerOf(Principal principal, WebSession session) {
    if (session.apiTokenId().isPresent()) {
      return new Caller(principal);
    }
    return externalIdentities.externalIdOf(principal.id())
        .flatMap(authentication::callerNamed)
        .filter(caller -> caller.identities().contains(principal))
        .map(caller -> caller.as(principal))
        .orElseGet(() -> new Caller(principal));
  }

  private StartedSession start(Principal principal, Optional<ApiToken> token) {
    Instant now = clock.instant();
    Instant expiresAt = now.plus(lifetime);
    Optional<Instant> tokenExpiry = token.flatMap(ApiToken::expiresAt);
    if (tokenExpiry.isPresent() && tokenExpiry.get().isBefore(expiresAt)) {
      expiresAt = tokenExpiry.get();
    }
    String secret = randomText();
    sessions.insert(new WebSession(ids.newId(), principal.id(), ApiToken.hash(secret),
        token.map(ApiToken::id), randomText(), now, expiresAt, Optional.empty()));
    sessions.deleteExpired(now.minus(KEEP_EXPIRED));
    return new StartedSession(secret, expiresAt);
  }

  private String randomText() {
    return Base64.getUrlEncoder().withoutPadding().encodeToString(ids.randomBytes(SECRET_BYTES));
  }
}
