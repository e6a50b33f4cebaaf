package io.floe.application.model;

import java.util.Objects;
import java.util.Optional;

/**
 * What a request carries besides its body and its caller: the id its log lines and records are
 * filed under, and the idempotency key it was sent with, if any.
 */
public record RequestInfo(String requestId, Optional<IdempotencyKey> idempotencyKey) {
  public RequestInfo {
    Objects.requireNonNull(requestId, "requestId");
    Objects.requireNonNull(idempotencyKey, "idempotencyKey");
  }

  /** A request that came from inside the server (start-up, the cleanup pass, a test). */
  public static RequestInfo internal() {
    return new RequestInfo("-", Optional.empty());
  }
}
