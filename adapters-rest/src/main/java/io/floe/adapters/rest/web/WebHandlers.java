package io.floe.adapters.rest.web;

import io.floe.adapters.rest.iceberg.IcebergErrors;
import io.floe.application.port.in.access.AuthenticateUseCase;
import io.floe.application.port.in.access.WebSessionsUseCase;
import io.javalin.http.Context;
import io.javalin.http.Handler;
import java.util.function.Consumer;
import org.apache.iceberg.exceptions.NotAuthorizedException;

/**
 * Turns page renderers and form actions into handlers: security headers on every answer, errors
 * as pages, the form token checked before any form acts, and a refused form shown again with the
 * reason above it instead of an error page.
 */
final class WebHandlers {
  /**
   * Only this server's own scripts, styles and images, and no framing: markup that slipped
   * through escaping still could not run a script or load anything from elsewhere.
   */
  static final String CONTENT_SECURITY_POLICY = "default-src 'none'; script-src 'self'; "
      + "style-src 'self'; img-src 'self' data:; connect-src 'self'; form-action 'self'; "
      + "frame-ancestors 'none'; base-uri 'none'";

  private final WebSessionsUseCase sessions;
  private final AuthenticateUseCase authentication;
  private final Pages pages;
  private final WebErrors errors;

  WebHandlers(WebSessionsUseCase sessions, AuthenticateUseCase authentication, Pages pages) {
    this.sessions = sessions;
    this.authentication = authentication;
    this.pages = pages;
    this.errors = new WebErrors(pages);
  }

  WebErrors errors() {
    return errors;
  }

  /** A page: rendered, or an error page (the sign-in page without a session). */
  Handler page(Consumer<WebRequest> render) {
    return ctx -> {
      WebRequest request = request(ctx);
      try {
        render.accept(request);
      } catch (Exception e) {
        errors.handle(request, e);
      }
    };
  }

  /**
   * A form: the token is checked, then {@code action} runs (and redirects). When the use case
   * refuses the input (a 4xx other than "sign in" or "not found"), {@code pageAgain} renders the
   * page the form was on, with the status and the reason.
   */
  Handler form(Consumer<WebRequest> action, Consumer<WebRequest> pageAgain) {
    return ctx -> {
      WebRequest request = request(ctx);
      try {
        request.requireFormToken();
        action.accept(request);
      } catch (Exception e) {
        int status = IcebergErrors.statusOf(e);
        if (e instanceof NotAuthorizedException || status == 404 || status >= 500) {
          errors.handle(request, e);
          return;
        }
        request.problem(e.getMessage());
        ctx.status(status);
        try {
          pageAgain.accept(request);
        } catch (Exception again) {
          errors.handle(request, again);
        }
      }
    };
  }

  WebRequest request(Context ctx) {
    secure(ctx);
    return new WebRequest(ctx, sessions, authentication, pages);
  }

  static void secure(Context ctx) {
    ctx.header("Content-Security-Policy", CONTENT_SECURITY_POLICY);
    ctx.header("X-Content-Type-Options", "nosniff");
    ctx.header("X-Frame-Options", "DENY");
    ctx.header("Referrer-Policy", "same-origin");
    ctx.header("Cache-Control", "no-store");
  }
}
