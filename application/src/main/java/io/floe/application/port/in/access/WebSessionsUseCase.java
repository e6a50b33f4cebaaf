package io.floe.application.port.in.access;

import io.floe.application.security.Caller;
import java.time.Instant;

/**
 * The web app's sign-in: a browser proves who it is once, with an API token or with its identity
 * provider's ID token, and then carries an opaque session secret that the server can end. The
 * credential itself never leaves the server.
 */
public interface WebSessionsUseCase {
  /** A new session: {@code secret} goes into the browser's cookie, and nowhere else. */
  record StartedSession(String secret, Instant expiresAt) {}

  /** A live session: who acts, and the token every form it posts must carry. */
  record ActiveSession(Caller caller, String csrfToken, Instant expiresAt) {}

  /**
   * Signs in with what the API accepts as a bearer token.
   *
   * @throws org.apache.iceberg.exceptions.NotAuthorizedException for an invalid token
   */
  StartedSession signIn(String bearerToken);

  /**
   * Signs in with an ID token the identity provider issued to the web app (its audience is the
   * web app's client id), for the user whose external id it names.
   *
   * @throws org.apache.iceberg.exceptions.NotAuthorizedException when the token does not verify
   *     or names no user of this server
   */
  StartedSession signInWithIdToken(String idToken);

  /**
   * @throws org.apache.iceberg.exceptions.NotAuthorizedException when the session is unknown,
   *     signed out, expired, or its API token was revoked or expired
   */
  ActiveSession resume(String secret);

  /** Ends the session; an unknown or ended one is left as it is. */
  void signOut(String secret);
}
