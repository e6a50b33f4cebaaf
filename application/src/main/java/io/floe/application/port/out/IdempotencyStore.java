package io.floe.application.port.out;

import java.time.Instant;
import java.util.Optional;
import java.util.UUID;

/** Responses recorded for requests that carried an {@code Idempotency-Key}. */
public interface IdempotencyStore {
  record Recorded(String operation, int status, String body) {}

  Optional<Recorded> find(UUID orgId, String key, Instant now);

  /** Records a response; false when another request recorded the same key first. */
  boolean record(UUID orgId, String key, Recorded response, Instant expiresAt);

  long deleteExpired(Instant now);
}
