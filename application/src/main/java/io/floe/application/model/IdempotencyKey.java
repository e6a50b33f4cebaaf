package io.floe.application.model;

import java.util.Objects;
import org.apache.iceberg.exceptions.BadRequestException;

/**
 * An {@code Idempotency-Key} and a fingerprint of the request it came with (method, route and a
 * hash of the body). The same key sent again with another fingerprint is a different request
 * reusing the key, which is refused rather than answered with the first request's result.
 */
public record IdempotencyKey(String key, String requestFingerprint) {
  public static final int MAX_LENGTH = 128;

  public IdempotencyKey {
    Objects.requireNonNull(requestFingerprint, "requestFingerprint");
    if (key == null || key.isBlank() || key.length() > MAX_LENGTH
        || !key.chars().allMatch(c -> c > 0x20 && c < 0x7f)) {
      throw new BadRequestException(
          "Idempotency-Key must be 1 to %d visible ASCII characters", MAX_LENGTH);
    }
  }
}
