package io.floe.adapters.rest.web;

import io.floe.adapters.rest.web.view.Chrome;
import io.floe.adapters.rest.web.view.Continue;
import io.floe.adapters.rest.web.view.SignInPage;
import io.floe.application.model.MemberOrg;
import io.floe.application.port.in.access.WebSessionsUseCase;
import io.floe.application.port.in.access.WebSessionsUseCase.StartedSession;
import io.floe.application.port.in.org.OrgsUseCase;
import io.floe.domain.StorableText;
import io.javalin.config.RoutesConfig;
import io.javalin.http.Context;
import io.javalin.http.HttpStatus;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.SecureRandom;
import java.time.Duration;
import java.time.Instant;
import java.util.Base64;
import java.util.List;
import java.util.Optional;
import org.apache.iceberg.exceptions.ForbiddenException;
import org.apache.iceberg.exceptions.NotAuthorizedException;

/**
 * Signing in and out: with an API token typed into the form, or at the identity provider when one
 * is configured for browsers. The session cookie holds only the session's random secret.
 */
final class SignInRoutes {
  private static final Duration SIGN_IN_FORM_LIFETIME = Duration.ofHours(1);
  private static final Duration PROVIDER_ROUND_TRIP = Duration.ofMinutes(10);
  private static final String CALLBACK = WebPaths.SIGN_IN + "/callback";
  private static final SecureRandom RANDOM = new SecureRandom();

  private final WebHandlers handlers;
  private final WebSessionsUseCase sessions;
  private final OrgsUseCase orgs;
  private final Optional<IdentityProviderSignIn> provider;

  SignInRoutes(WebHandlers handlers, WebSessionsUseCase sessions, OrgsUseCase orgs,
      Optional<IdentityProviderSignIn> provider) {
    this.handlers = handlers;
    this.sessions = sessions;
    this.orgs = orgs;
    this.provider = provider;
  }

  void register(RoutesConfig routes) {
    routes.get(WebPaths.ROOT, handlers.page(this::home));
    routes.get(WebPaths.SIGN_IN, handlers.page(r -> signInPage(r, Optional.empty())));
    routes.post(WebPaths.SIGN_IN, handlers.page(this::signIn));
    routes.post(WebPaths.ROOT + "/sign-out", handlers.page(this::signOut));
    routes.get(WebPaths.SIGN_IN + "/provider", handlers.page(this::toProvider));
    routes.get(CALLBACK, handlers.page(this::fromProvider));
  }

  /** The org home of the caller's first org, or the sign-in page. */
  private void home(WebRequest r) {
    List<MemberOrg> member = orgs.orgsOf(r.session().caller());
    if (member.isEmpty()) {
      throw new NotAuthorizedException("This principal belongs to no org");
    }
    r.redirect(WebPaths.org(member.get(0).org().name().value()));
  }

  private void signInPage(WebRequest r, Optional<String> problem) {
    Context ctx = r.http();
    String formToken = Cookies.read(ctx, Cookies.SIGN_IN).orElseGet(SignInRoutes::random);
    Cookies.set(ctx, Cookies.SIGN_IN, formToken, WebPaths.SIGN_IN, SIGN_IN_FORM_LIFETIME,
        "Strict");
    String next = WebPaths.safeReturnPath(r.query("next")
        .or(() -> r.form("next")).orElse("/"));
    r.render("signin.jte", new SignInPage(Chrome.anonymous("Sign in", formToken, problem), next,
        provider.isPresent(), r.query("done").filter("signed-out"::equals).isPresent()));
  }

  private void signIn(WebRequest r) {
    Context ctx = r.http();
    String expected = Cookies.read(ctx, Cookies.SIGN_IN).orElse("");
    // Without the form's cookie the body is not worth reading (nor waiting for).
    String sent = expected.isEmpty() ? "" : r.rawForm(WebRequest.CSRF_FIELD).orElse("");
    if (expected.isEmpty() || !MessageDigest.isEqual(expected.getBytes(StandardCharsets.UTF_8),
        sent.getBytes(StandardCharsets.UTF_8))) {
      ctx.status(HttpStatus.FORBIDDEN);
      signInPage(r, Optional.of(new ForbiddenException(
          "This form has expired or did not come from this site; try again").getMessage()));
      return;
    }
    StartedSession started;
    try {
      started = sessions.signIn(r.form("token").orElse(""));
    } catch (NotAuthorizedException e) {
      ctx.status(HttpStatus.UNAUTHORIZED);
      signInPage(r, Optional.of("That API token is not valid: it is unknown, expired or "
          + "revoked."));
      return;
    }
    startSession(ctx, started);
    r.redirect(WebPaths.safeReturnPath(r.form("next").orElse("/")));
  }

  private void signOut(WebRequest r) {
    r.requireFormToken();
    Cookies.read(r.http(), Cookies.SESSION).ifPresent(sessions::signOut);
    Cookies.clear(r.http(), Cookies.SESSION, "/", "Strict");
    r.redirect(WebPaths.SIGN_IN + "?done=signed-out");
  }

  private void toProvider(WebRequest r) {
    IdentityProviderSignIn signIn = provider.orElseThrow(() ->
        new org.apache.iceberg.exceptions.NotFoundException("No identity provider is configured"));
    IdentityProviderSignIn.Start start = signIn.start(callbackUri(r.http()));
    String next = WebPaths.safeReturnPath(r.query("next").orElse("/"));
    Cookies.set(r.http(), Cookies.OIDC, pack(start.pending(), next), WebPaths.SIGN_IN,
        PROVIDER_ROUND_TRIP, "Lax");
    r.http().redirect(start.authorizationUri().toString(), HttpStatus.FOUND);
  }

  /** A refused sign-in at the provider is shown on the sign-in page, with the reason. */
  private void fromProvider(WebRequest r) {
    try {
      finishAtProvider(r);
    } catch (NotAuthorizedException e) {
      r.http().status(HttpStatus.UNAUTHORIZED);
      signInPage(r, Optional.of(e.getMessage()));
    }
  }

  private void finishAtProvider(WebRequest r) {
    Context ctx = r.http();
    IdentityProviderSignIn signIn = provider.orElseThrow(() ->
        new org.apache.iceberg.exceptions.NotFoundException("No identity provider is configured"));
    String[] kept = Cookies.read(ctx, Cookies.OIDC).orElse("").split("\\.", -1);
    Cookies.clear(ctx, Cookies.OIDC, WebPaths.SIGN_IN, "Lax");
    if (kept.length != 4) {
      throw new NotAuthorizedException("This sign-in was not started here, or it expired");
    }
    r.query("error").ifPresent(error -> {
      throw new NotAuthorizedException("The identity provider refused the sign-in: %s", error);
    });
    String idToken = signIn.finish(
        new IdentityProviderSignIn.Pending(kept[0], kept[1], kept[2]),
        ctx.queryParam("state"), ctx.queryParam("code"), callbackUri(ctx));
    startSession(ctx, sessions.signInWithIdToken(idToken));
    String next = WebPaths.safeReturnPath(returnPath(kept[3]));
    r.render("continue.jte", new Continue(Chrome.anonymous("Signed in", "", Optional.empty()),
        next));
  }

  /** The page to return to, as kept in the cookie; nothing, if the cookie was tampered with. */
  private static String returnPath(String kept) {
    try {
      return StorableText.fromUtf8(Base64.getUrlDecoder().decode(kept), "the return path");
    } catch (IllegalArgumentException | StorableText.InvalidTextException e) {
      return null;
    }
  }

  private static void startSession(Context ctx, StartedSession started) {
    Cookies.set(ctx, Cookies.SESSION, started.secret(), "/",
        Duration.between(Instant.now(), started.expiresAt()), "Strict");
    Cookies.clear(ctx, Cookies.SIGN_IN, WebPaths.SIGN_IN, "Strict");
  }

  private static String pack(IdentityProviderSignIn.Pending pending, String next) {
    return String.join(".", pending.state(), pending.codeVerifier(), pending.nonce(),
        Base64.getUrlEncoder().withoutPadding().encodeToString(
            next.getBytes(StandardCharsets.UTF_8)));
  }

  /** This server's callback as the browser reaches it; the provider only accepts registered ones. */
  private static URI callbackUri(Context ctx) {
    return URI.create(ctx.scheme() + "://" + ctx.host() + CALLBACK);
  }

  private static String random() {
    byte[] bytes = new byte[32];
    RANDOM.nextBytes(bytes);
    return Base64.getUrlEncoder().withoutPadding().encodeToString(bytes);
  }
}
