package io.floe.adapters.rest.iceberg;

import io.floe.adapters.rest.RequestTracing;
import io.floe.application.port.in.AuthenticateUseCase;
import io.floe.application.port.in.IdempotentRequestsUseCase;
import io.floe.application.port.in.IdempotentRequestsUseCase.Reply;
import io.floe.application.security.Caller;
import io.floe.application.security.OrgContext;
import io.javalin.http.Context;
import java.util.function.Supplier;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.exceptions.BadRequestException;
import org.apache.iceberg.rest.RESTUtil;

/**
 * One Iceberg REST request: who is calling, in which org, about which namespace or table, and
 * how to answer. Path segments are decoded from the raw URI with Iceberg's own rules, so a name is
 * read exactly as Iceberg's clients encoded it.
 */
final class IcebergRequest {
  static final String IDEMPOTENCY_KEY = RESTUtil.IDEMPOTENCY_KEY_HEADER;
  private static final int PREFIX = 3;
  private static final int NAMESPACE = 5;
  private static final int OBJECT = 7;

  private final Context ctx;
  private final String[] segments;
  private final AuthenticateUseCase authentication;
  private final IdempotentRequestsUseCase idempotency;
  private OrgContext scope;

  IcebergRequest(Context ctx, AuthenticateUseCase authentication,
      IdempotentRequestsUseCase idempotency) {
    this.ctx = ctx;
    this.segments = ctx.req().getRequestURI().split("/", -1);
    this.authentication = authentication;
    this.idempotency = idempotency;
  }

  Context http() {
    return ctx;
  }

  /** The caller inside the org named by the route's prefix. */
  OrgContext scope() {
    if (scope == null) {
      Caller caller = authentication.authenticate(bearerToken(ctx));
      RequestTracing.authenticated(ctx, caller);
      scope = authentication.enterOrg(caller, RESTUtil.decodeString(segment(PREFIX)));
    }
    return scope;
  }

  Namespace namespace() {
    return RESTUtil.decodeNamespace(segment(NAMESPACE));
  }

  TableIdentifier object() {
    return TableIdentifier.of(namespace(), RESTUtil.decodeString(segment(OBJECT)));
  }

  String body() {
    return ctx.body();
  }

  Integer pageSize() {
    String raw = ctx.queryParam("pageSize");
    if (raw == null || raw.isEmpty()) {
      return null;
    }
    try {
      return Integer.parseInt(raw);
    } catch (NumberFormatException e) {
      throw new BadRequestException("Invalid pageSize: %s", raw);
    }
  }

  String pageToken() {
    return ctx.queryParam("pageToken");
  }

  void respond(Reply reply) {
    ctx.status(reply.status());
    if (reply.body() != null && !reply.body().isEmpty()) {
      ctx.contentType("application/json").result(reply.body());
    }
  }

  void json(Object body) {
    respond(new Reply(200, RestJson.write(body)));
  }

  /**
   * Runs a mutating request; with an {@code Idempotency-Key} header, at most once per key, the
   * response recorded in the same transaction as the change.
   */
  void mutate(String operation, Supplier<Reply> work) {
    String key = ctx.header(IDEMPOTENCY_KEY);
    if (key == null) {
      respond(work.get());
    } else {
      respond(idempotency.run(scope(), key, operation + " " + ctx.req().getRequestURI(), work));
    }
  }

  static Reply ok(Object body) {
    return new Reply(200, RestJson.write(body));
  }

  static Reply noContent() {
    return new Reply(204, "");
  }

  static String bearerToken(Context ctx) {
    String header = ctx.header("Authorization");
    if (header == null) {
      return null;
    }
    String[] parts = header.strip().split("\\s+", 2);
    return parts.length == 2 && parts[0].equalsIgnoreCase("Bearer") ? parts[1] : null;
  }

  private String segment(int index) {
    if (index >= segments.length || segments[index].isEmpty()) {
      throw new BadRequestException("Malformed request path: %s", ctx.req().getRequestURI());
    }
    return segments[index];
  }
}
