package io.floe.adapters.rest.http;

import io.floe.adapters.rest.http.RequestInput;
import io.floe.application.security.Caller;
import io.javalin.http.Context;
import io.javalin.router.Endpoint;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ThreadLocalRandom;
import java.util.regex.Pattern;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.slf4j.MDC;

/**
 * Each request's id and its access-log line. The id is the caller's {@code X-Request-Id} when it
 * is a sane one (up to 128 letters, digits and {@code -_.:}), else a new UUID; it is echoed in the
 * response header and put in the logging MDC as {@value #MDC_KEY}, so that every line logged
 * while the request runs carries it (the log pattern shows it). When the request ends, one line at
 * INFO on the {@code io.floe.access} logger says: method, route template, status, duration in
 * milliseconds and the principal's id (or {@code -}), with the request id in the MDC. Health and
 * readiness probes, which orchestrators send every few seconds, log at DEBUG.
 */
public final class RequestTracing {
  public static final String HEADER = "X-Request-Id";
  public static final String MDC_KEY = "request_id";
  private static final String PRINCIPAL = "floe.principal";
  private static final String ID = "floe.request-id";
  private static final Pattern SANE_ID = Pattern.compile("[A-Za-z0-9._:-]{1,128}");
  private static final Logger ACCESS = LoggerFactory.getLogger("io.floe.access");
  private static final Set<String> PROBES = Set.of("/health", "/ready");

  private RequestTracing() {}

  /** Before any handler: the request's id, in the response and the MDC. */
  public static void begin(Context ctx) {
    String given = ctx.header(HEADER);
    String id = given != null && SANE_ID.matcher(given).matches() ? given : newId();
    ctx.header(HEADER, id);
    ctx.attribute(ID, id);
    MDC.put(MDC_KEY, id);
  }

  /**
   * A random (version 4) UUID. A request id needs to be unique, not unguessable, so it comes from
   * the thread's own generator rather than the shared secure one, which every request thread
   * would otherwise queue for.
   */
  static String newId() {
    ThreadLocalRandom random = ThreadLocalRandom.current();
    long high = random.nextLong() & ~0xf000L | 0x4000L;
    long low = random.nextLong() & ~(0xcL << 60) | 0x8L << 60;
    return new UUID(high, low).toString();
  }

  /** The request's id, for the records its changes leave. */
  public static String id(Context ctx) {
    String id = ctx.attribute(ID);
    return id != null ? id : "-";
  }

  /**
   * Remembers who made the request, for its access-log line, and reads and checks its body now
   * that its sender is known ({@link RequestInput#body}): before the route acts on anything.
   */
  public static void authenticated(Context ctx, Caller caller) {
    ctx.attribute(PRINCIPAL, caller.principal().id().toString());
    RequestInput.body(ctx);
  }

  /** After the response: the access-log line, then the MDC is cleared for the next request. */
  public static void end(Context ctx, float durationMs) {
    try {
      Endpoint matched = ctx.endpoints().matchedHttpEndpoint();
      String principal = ctx.attribute(PRINCIPAL);
      String route = matched == null ? "(no route)" : matched.path;
      Object[] fields = {ctx.method(), route, ctx.statusCode(), Math.round(durationMs),
          principal == null ? "-" : principal};
      if (PROBES.contains(route)) {
        ACCESS.debug("{} {} {} {}ms principal={}", fields);
      } else {
        ACCESS.info("{} {} {} {}ms principal={}", fields);
      }
    } finally {
      MDC.remove(MDC_KEY);
    }
  }
}
