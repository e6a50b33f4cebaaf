package io.floe.adapters.rest;

import io.javalin.http.Context;
import java.util.UUID;
import java.util.concurrent.ThreadLocalRandom;
import java.util.regex.Pattern;
import org.slf4j.MDC;

/**
 * Every request's id: the caller's {@value #HEADER} when it is a sane one (up to 128 letters,
 * digits and {@code -_.:}), else a new UUID. It is sent back in the same header, kept on the
 * request for the use cases (idempotency records, audit) and put in the logging MDC as
 * {@value #MDC_KEY} while the request runs, so that every line it logs carries it.
 */
public final class RequestIds {
  public static final String HEADER = "X-Request-Id";
  public static final String MDC_KEY = "requestId";
  /** Where handlers find the id on the request. */
  public static final String ATTRIBUTE = "floe.request-id";
  private static final Pattern SANE = Pattern.compile("[A-Za-z0-9._:-]{1,128}");

  private RequestIds() {}

  static void begin(Context ctx) {
    String given = ctx.header(HEADER);
    String id = given != null && SANE.matcher(given).matches() ? given : newId();
    ctx.attribute(ATTRIBUTE, id);
    ctx.header(HEADER, id);
    MDC.put(MDC_KEY, id);
  }

  /**
   * A random (version 4) UUID. Request ids need to be unique, not unguessable, so they come from
   * the thread's fast generator rather than the shared secure one.
   */
  private static String newId() {
    ThreadLocalRandom random = ThreadLocalRandom.current();
    long high = random.nextLong() & ~0xF000L | 0x4000L;
    long low = random.nextLong() & 0x3FFFFFFFFFFFFFFFL | 0x8000000000000000L;
    return new UUID(high, low).toString();
  }

  static void end() {
    MDC.remove(MDC_KEY);
  }
}
