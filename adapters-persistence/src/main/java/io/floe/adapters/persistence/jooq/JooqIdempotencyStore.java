package io.floe.adapters.persistence.jooq;

import static io.floe.adapters.persistence.jooq.schema.Tables.IDEMPOTENCY_RECORDS;

import io.floe.application.port.out.IdempotencyStore;
import java.time.Instant;
import java.util.Optional;
import java.util.UUID;
import org.jooq.DSLContext;

/** Recorded results for idempotency keys, per principal and org, with their expiry. */
public final class JooqIdempotencyStore implements IdempotencyStore {
  private final DSLContext dsl;

  public JooqIdempotencyStore(Database database) {
    this.dsl = database.dsl();
  }

  @Override
  public Optional<Recorded> find(UUID orgId, UUID principalId, String key, Instant now) {
    return dsl.selectFrom(IDEMPOTENCY_RECORDS)
        .where(IDEMPOTENCY_RECORDS.ORG_ID.eq(orgId),
            IDEMPOTENCY_RECORDS.PRINCIPAL_ID.eq(principalId),
            IDEMPOTENCY_RECORDS.KEY.eq(key),
            IDEMPOTENCY_RECORDS.EXPIRES_AT.gt(Times.of(now)))
        .fetchOptional()
        .map(row -> new Recorded(row.getRequestFingerprint(), row.getResult()));
  }

  @Override
  public boolean record(UUID orgId, UUID principalId, String key, Recorded recorded,
      Instant expiresAt, Instant now) {
    // An expired record of the same key is replaced; a live one is kept. Expired means by the
    // caller's clock, the one find() judges by, not the database's.
    return dsl.insertInto(IDEMPOTENCY_RECORDS)
        .set(IDEMPOTENCY_RECORDS.ORG_ID, orgId)
        .set(IDEMPOTENCY_RECORDS.PRINCIPAL_ID, principalId)
        .set(IDEMPOTENCY_RECORDS.KEY, key)
        .set(IDEMPOTENCY_RECORDS.REQUEST_FINGERPRINT, recorded.requestFingerprint())
        .set(IDEMPOTENCY_RECORDS.RESULT, recorded.result())
        .set(IDEMPOTENCY_RECORDS.EXPIRES_AT, Times.of(expiresAt))
        .onConflict(IDEMPOTENCY_RECORDS.ORG_ID, IDEMPOTENCY_RECORDS.PRINCIPAL_ID,
            IDEMPOTENCY_RECORDS.KEY)
        .doUpdate()
        .set(IDEMPOTENCY_RECORDS.REQUEST_FINGERPRINT, recorded.requestFingerprint())
        .set(IDEMPOTENCY_RECORDS.RESULT, recorded.result())
        .set(IDEMPOTENCY_RECORDS.EXPIRES_AT, Times.of(expiresAt))
        .set(IDEMPOTENCY_RECORDS.CREATED_AT, Times.of(now))
        .where(IDEMPOTENCY_RECORDS.EXPIRES_AT.le(Times.of(now)))
        .execute() == 1;
  }

  @Override
  public long deleteExpired(Instant now) {
    return dsl.deleteFrom(IDEMPOTENCY_RECORDS)
        .where(IDEMPOTENCY_RECORDS.EXPIRES_AT.le(Times.of(now))).execute();
  }
}
