package io.floe.adapters.rest.web;

import io.javalin.http.Context;
import java.time.Duration;
import java.util.Optional;

/**
 * The web app's cookies, always HttpOnly (scripts never read them) and Secure when the request
 * came over TLS. The session cookie is SameSite=Strict, so no other site's page can make the
 * browser send it; only the identity provider's round trip needs Lax, for its own short-lived
 * cookie, because the provider sends the browser back from another site.
 */
final class Cookies {
  static final String SESSION = "floe_session";
  /** The sign-in form's own CSRF token, before there is a session to hold one. */
  static final String SIGN_IN = "floe_sign_in";
  /** State, PKCE verifier and nonce of a sign-in at the identity provider. */
  static final String OIDC = "floe_oidc";

  private Cookies() {}

  static Optional<String> read(Context ctx, String name) {
    return Optional.ofNullable(ctx.cookie(name)).filter(value -> !value.isBlank());
  }

  static void set(Context ctx, String name, String value, String path, Duration maxAge,
      String sameSite) {
    StringBuilder cookie = new StringBuilder(name).append('=').append(value)
        .append("; Path=").append(path)
        .append("; Max-Age=").append(Math.max(0, maxAge.toSeconds()))
        .append("; HttpOnly; SameSite=").append(sameSite);
    if (isTls(ctx)) {
      cookie.append("; Secure");
    }
    ctx.res().addHeader("Set-Cookie", cookie.toString());
  }

  static void clear(Context ctx, String name, String path, String sameSite) {
    set(ctx, name, "", path, Duration.ZERO, sameSite);
  }

  static boolean isTls(Context ctx) {
    return "https".equalsIgnoreCase(ctx.scheme());
  }
}
