package io.floe.application.model;

/**
 * Refused for the server's sake, not the request's: too much of this kind of work runs at once.
 * Nothing was done; the same request may be sent again shortly. The APIs answer 429 with
 * {@code Retry-After}.
 */
public final class TooBusyException extends RuntimeException {
  public TooBusyException(String message) {
    super(message);
  }
}
