package io.floe.adapters.rest.web;

import io.floe.adapters.rest.http.RequestTracing;
import io.floe.adapters.rest.http.RetryAfter;
import io.floe.adapters.rest.iceberg.IcebergErrors;
import io.floe.adapters.rest.web.view.Chrome;
import io.floe.adapters.rest.web.view.ErrorPage;
import io.javalin.http.Context;
import java.util.Optional;
import org.apache.iceberg.exceptions.NotAuthorizedException;
import org.apache.iceberg.rest.responses.ErrorResponse;

/**
 * Errors as the web app shows them: the status and message the APIs would give for the same
 * exception (decided once, in {@link IcebergErrors}), on a page; without a valid session, the
 * sign-in page instead.
 */
final class WebErrors {
  private final Pages pages;

  WebErrors(Pages pages) {
    this.pages = pages;
  }

  void handle(WebRequest request, Exception error) {
    Context ctx = request.http();
    if (error instanceof NotAuthorizedException) {
      String back = "GET".equals(ctx.method().name()) ? ctx.path()
          + (ctx.queryString() == null ? "" : "?" + ctx.queryString()) : "/";
      Cookies.clear(ctx, Cookies.SESSION, "/", "Strict");
      ctx.redirect(WebPaths.SIGN_IN + "?next=" + WebPaths.query(WebPaths.safeReturnPath(back)),
          io.javalin.http.HttpStatus.SEE_OTHER);
      return;
    }
    ErrorResponse response = IcebergErrors.toResponse(error, RequestTracing.id(ctx));
    page(ctx, response.code(), response.code() >= 500 && response.code() != 503
        ? "Something went wrong on the server; its log has the error under request id "
            + RequestTracing.id(ctx) + "." : response.message());
  }

  /** An error page with no session behind it (an unknown path, a refused method). */
  void page(Context ctx, int status, String message) {
    String heading = switch (status) {
      case 403 -> "Not allowed";
      case 404 -> "Not found";
      case 409 -> "Conflict";
      case 400, 422 -> "That did not work";
      case 429, 503 -> "Try again shortly";
      default -> status >= 500 ? "Server error" : "Error";
    };
    if (RetryAfter.applies(status)) {
      ctx.header(RetryAfter.HEADER, Integer.toString(RetryAfter.SECONDS));
    }
    ctx.status(status).contentType("text/html; charset=utf-8").result(pages.render("error.jte",
        new ErrorPage(Chrome.anonymous(heading, "", Optional.empty()), status, heading,
            message)));
  }
}
