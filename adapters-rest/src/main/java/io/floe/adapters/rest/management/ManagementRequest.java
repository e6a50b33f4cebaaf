package io.floe.adapters.rest.management;

import io.floe.adapters.rest.http.RequestInput;
import io.floe.adapters.rest.http.RequestTracing;
import io.floe.application.model.RequestInfo;
import io.floe.application.port.in.access.AuthenticateUseCase;
import io.floe.application.security.Caller;
import io.floe.application.security.OrgContext;
import io.javalin.http.Context;
import java.util.Optional;

/**
 * One management API request: the caller from the bearer token, the org from the {@code {org}}
 * path parameter (404 when it does not exist or the caller is not a member), JSON in and out.
 */
public final class ManagementRequest {
  public static final String CONTENT_TYPE = "application/json";

  private final Context ctx;
  private final AuthenticateUseCase authentication;
  private Caller caller;
  private OrgContext scope;

  public ManagementRequest(Context ctx, AuthenticateUseCase authentication) {
    this.ctx = ctx;
    this.authentication = authentication;
  }

  public Context http() {
    return ctx;
  }

  public Caller caller() {
    if (caller == null) {
      caller = authentication.authenticate(bearerToken());
      RequestTracing.authenticated(ctx, caller);
    }
    return caller;
  }

  /** The caller inside the org named by the {@code {org}} path parameter. */
  public OrgContext scope() {
    if (scope == null) {
      scope = authentication.enterOrg(caller(), ctx.pathParam("org")).on(request());
    }
    return scope;
  }

  /** This request as the use cases know it: its id (management routes take no idempotency key). */
  public RequestInfo request() {
    return new RequestInfo(RequestTracing.id(ctx), Optional.empty());
  }

  /** Floe's words, or the arraylake client's when it asks for them. */
  public Vocabulary vocabulary() {
    return Vocabulary.accepting(ctx.header("Accept"));
  }

  /** This server as the caller reached it: scheme, host and port. */
  public String serverUrl() {
    String host = ctx.host();
    return ctx.scheme() + "://"
        + (host == null || host.isBlank() ? "127.0.0.1:" + ctx.port() : host);
  }

  /** The body as JSON, read once the caller is known (a stranger's is never waited for). */
  public <T> T body(Class<T> type) {
    return ManagementJson.read(text(), type);
  }

  /** The body as text, read once the caller is known. */
  public String text() {
    caller();
    return RequestInput.body(ctx);
  }

  public void respond(int status, Object body) {
    ctx.status(status);
    if (body != null) {
      ctx.contentType(CONTENT_TYPE).result(ManagementJson.write(body));
    }
  }

  public void ok(Object body) {
    respond(200, body);
  }

  private String bearerToken() {
    String header = ctx.header("Authorization");
    if (header == null) {
      return null;
    }
    String[] parts = header.strip().split("\\s+", 2);
    return parts.length == 2 && parts[0].equalsIgnoreCase("Bearer") ? parts[1] : null;
  }

  /** Whether a request path belongs to the management API (and gets its error format). */
  public static boolean isManagementPath(String path) {
    return path.startsWith("/orgs/") || path.equals("/orgs") || path.startsWith("/user")
        || path.startsWith("/api-clients") || path.startsWith("/teams")
        || path.startsWith("/repos/") || path.startsWith("/compute/") || path.equals("/compute")
        || path.startsWith("/auth/");
  }
}
