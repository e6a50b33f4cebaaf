package io.floe.adapters.rest.http;

import io.javalin.http.Context;
import java.util.UUID;

/**
 * Each request's id, sent back in {@value #HEADER}: an error answer names it, and the log lines
 * about the request carry it, so that a caller's report leads to the server's log.
 */
public final class RequestIds {
  public static final String HEADER = "X-Request-Id";

  private RequestIds() {}

  /** The request's id: the one already given to it, else a new one, from now on in the answer. */
  public static String of(Context ctx) {
    String id = ctx.res().getHeader(HEADER);
    if (id == null || id.isBlank()) {
      id = UUID.randomUUID().toString();
      ctx.header(HEADER, id);
    }
    return id;
  }
}
