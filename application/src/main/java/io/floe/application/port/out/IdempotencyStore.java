package io.floe.application.port.out;

import java.time.Instant;
import java.util.Optional;
import java.util.UUID;

/**
 * Results of changes made by requests that carried an {@code Idempotency-Key}. A key belongs to
 * one principal in one org: another caller using the same key never sees the record.
 */
public interface IdempotencyStore {
  /** A change's encoded result and the fingerprint of the request that made it. */
  record Recorded(String requestFingerprint, String result) {}

  /** The unexpired record of the principal's key in the org. */
  Optional<Recorded> find(UUID orgId, UUID principalId, String key, Instant now);

  /**
   * Records a result; false when the principal's key already has a record in the org that is
   * unexpired at {@code now} (another request with the same key got there first). An expired
   * record of the key is replaced. Joins the caller's transaction.
   */
  boolean record(UUID orgId, UUID principalId, String key, Recorded recorded, Instant expiresAt,
      Instant now);

  long deleteExpired(Instant now);
}
