package io.floe.adapters.rest.web;

import io.floe.adapters.rest.http.RequestInput;
import io.floe.adapters.rest.http.RequestTracing;
import io.floe.adapters.rest.web.view.Chrome;
import io.floe.adapters.rest.web.view.Crumb;
import io.floe.application.model.RequestInfo;
import io.floe.application.port.in.access.AuthenticateUseCase;
import io.floe.application.port.in.access.WebSessionsUseCase;
import io.floe.application.port.in.access.WebSessionsUseCase.ActiveSession;
import io.floe.application.security.OrgContext;
import io.floe.domain.Role;
import io.javalin.http.Context;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.List;
import java.util.Optional;
import org.apache.iceberg.exceptions.ForbiddenException;
import org.apache.iceberg.exceptions.NotAuthorizedException;

/**
 * One request to the web app: the signed-in session from its cookie, the org from the path, the
 * form token check, and rendering. Pages call the same use cases as the APIs with the caller the
 * session names, so what a page shows and allows is what the API would.
 */
public final class WebRequest {
  /** The form field every state-changing form carries. */
  public static final String CSRF_FIELD = "_csrf";

  private final Context ctx;
  private final WebSessionsUseCase sessions;
  private final AuthenticateUseCase authentication;
  private final Pages pages;
  private ActiveSession session;
  private OrgContext scope;
  private Optional<String> problem = Optional.empty();

  WebRequest(Context ctx, WebSessionsUseCase sessions, AuthenticateUseCase authentication,
      Pages pages) {
    this.ctx = ctx;
    this.sessions = sessions;
    this.authentication = authentication;
    this.pages = pages;
  }

  public Context http() {
    return ctx;
  }

  /** The signed-in session; without one the request ends in the sign-in page. */
  public ActiveSession session() {
    if (session == null) {
      session = sessions.resume(Cookies.read(ctx, Cookies.SESSION)
          .orElseThrow(() -> new NotAuthorizedException("Sign in first")));
    }
    return session;
  }

  /** The signed-in caller inside the org named by the {@code {org}} path parameter. */
  public OrgContext scope() {
    if (scope == null) {
      // The request's id goes with it, so a change made from a page is found in the audit log.
      scope = authentication.enterOrg(session().caller(), org())
          .on(new RequestInfo(RequestTracing.id(ctx), Optional.empty()));
    }
    return scope;
  }

  public String org() {
    return ctx.pathParam("org");
  }

  public String path(String name) {
    return ctx.pathParam(name);
  }

  /** A form field, stripped; empty when absent or blank. */
  public Optional<String> form(String name) {
    return rawForm(name).map(String::strip).filter(value -> !value.isEmpty());
  }

  /**
   * A form field as typed, whitespace kept; empty only when absent. The body is read here, through
   * the check every body passes; forms read it after {@link #requireFormToken}, only sign-in
   * before (it is how a caller becomes known).
   */
  public Optional<String> rawForm(String name) {
    RequestInput.body(ctx);
    return Optional.ofNullable(ctx.formParam(name));
  }

  public Optional<String> query(String name) {
    return Optional.ofNullable(ctx.queryParam(name)).map(String::strip)
        .filter(value -> !value.isEmpty());
  }

  /**
   * Refuses a state-changing request whose form does not carry this session's token: a page of
   * another site cannot read the token, so it cannot forge the form.
   */
  public void requireFormToken() {
    String expected = session().csrfToken();
    String sent = rawForm(CSRF_FIELD).orElse("");
    if (!MessageDigest.isEqual(expected.getBytes(StandardCharsets.UTF_8),
        sent.getBytes(StandardCharsets.UTF_8))) {
      throw new ForbiddenException("This form has expired or did not come from this site; "
          + "reload the page and try again");
    }
  }

  /** The problem with the form just posted, shown above the page rendered again. */
  void problem(String message) {
    problem = Optional.of(message);
  }

  /** The frame of a page in the org of the path: title and breadcrumbs after the org. */
  public Chrome chrome(String title, List<Crumb> crumbs) {
    OrgContext context = scope();
    List<Crumb> trail = new java.util.ArrayList<>();
    String org = context.org().name().value();
    trail.add(new Crumb(org, crumbs.isEmpty() ? null : WebPaths.org(org)));
    trail.addAll(crumbs);
    return new Chrome(title, Optional.of(context.caller().principal().name()),
        Optional.of(context.org().name().value()), context.membership().role() == Role.ADMIN,
        session().csrfToken(), trail, query("done").flatMap(Notices::text), problem);
  }

  public void render(String template, Object model) {
    html(ctx.statusCode(), pages.render(template, model));
  }

  void html(int status, String body) {
    ctx.status(status).contentType("text/html; charset=utf-8").result(body);
  }

  /** After a form: the browser fetches the page again with GET (no resubmission on reload). */
  public void redirect(String location) {
    ctx.redirect(location, io.javalin.http.HttpStatus.SEE_OTHER);
  }
}
