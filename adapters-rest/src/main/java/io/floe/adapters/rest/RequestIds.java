package io.floe.adapters.rest;

import io.floe.application.model.IdempotencyKey;
import io.floe.application.model.RequestInfo;
import io.javalin.http.Context;
import java.util.Optional;
import java.util.UUID;

/**
 * Every request's id: chosen by the server (a client cannot put words in the audit log), sent
 * back in {@value #HEADER}, and recorded with whatever the request changed, so that a response,
 * a log line and an audit entry can be matched.
 */
public final class RequestIds {
  public static final String HEADER = "X-Request-Id";
  private static final String ATTRIBUTE = "floe.request-id";

  private RequestIds() {}

  /** Gives the request its id; runs before every handler. */
  static void assign(Context ctx) {
    String id = UUID.randomUUID().toString();
    ctx.attribute(ATTRIBUTE, id);
    ctx.header(HEADER, id);
  }

  public static String of(Context ctx) {
    Object id = ctx.attribute(ATTRIBUTE);
    return id != null ? id.toString() : "-";
  }

  /** What the use cases learn about the request besides its body and caller. */
  public static RequestInfo info(Context ctx, Optional<IdempotencyKey> idempotencyKey) {
    return new RequestInfo(of(ctx), idempotencyKey);
  }
}
