package io.floe.adapters.rest.http;

/**
 * The one rule for answers that ask the client to come back later: every 429 and 503, whichever
 * API or page gives it, carries {@code Retry-After} with {@value #SECONDS} second(s). Nothing was
 * written by such a request, so the client may send it again unchanged.
 */
public final class RetryAfter {
  public static final String HEADER = "Retry-After";
  public static final int SECONDS = 1;

  private RetryAfter() {}

  public static boolean applies(int status) {
    return status == 429 || status == 503;
  }
}
