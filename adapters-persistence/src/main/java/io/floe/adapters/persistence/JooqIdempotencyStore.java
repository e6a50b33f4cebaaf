package io.floe.adapters.persistence;

import static io.floe.adapters.persistence.jooq.Tables.IDEMPOTENCY_RECORDS;

import io.floe.application.port.out.IdempotencyStore;
import java.time.Instant;
import java.util.Optional;
import java.util.UUID;
import org.jooq.DSLContext;

/** Recorded responses for idempotency keys, with their expiry. */
public final class JooqIdempotencyStore implements IdempotencyStore {
  private final DSLContext dsl;

  public JooqIdempotencyStore(Database database) {
    this.dsl = database.dsl();
  }

  @Override
  public Optional<Recorded> find(UUID orgId, String key, Instant now) {
    return dsl.selectFrom(IDEMPOTENCY_RECORDS)
        .where(IDEMPOTENCY_RECORDS.ORG_ID.eq(orgId), IDEMPOTENCY_RECORDS.KEY.eq(key),
            IDEMPOTENCY_RECORDS.EXPIRES_AT.gt(Times.of(now)))
        .fetchOptional()
        .map(row -> new Recorded(row.getOperation(), row.getStatus(), row.getBody()));
  }

  @Override
  public boolean record(UUID orgId, String key, Recorded response, Instant expiresAt) {
    // An expired record of the same key is replaced; a live one is kept.
    return dsl.insertInto(IDEMPOTENCY_RECORDS)
        .set(IDEMPOTENCY_RECORDS.ORG_ID, orgId)
        .set(IDEMPOTENCY_RECORDS.KEY, key)
        .set(IDEMPOTENCY_RECORDS.OPERATION, response.operation())
        .set(IDEMPOTENCY_RECORDS.STATUS, response.status())
        .set(IDEMPOTENCY_RECORDS.BODY, response.body())
        .set(IDEMPOTENCY_RECORDS.EXPIRES_AT, Times.of(expiresAt))
        .onConflict(IDEMPOTENCY_RECORDS.ORG_ID, IDEMPOTENCY_RECORDS.KEY)
        .doUpdate()
        .set(IDEMPOTENCY_RECORDS.OPERATION, response.operation())
        .set(IDEMPOTENCY_RECORDS.STATUS, response.status())
        .set(IDEMPOTENCY_RECORDS.BODY, response.body())
        .set(IDEMPOTENCY_RECORDS.EXPIRES_AT, Times.of(expiresAt))
        .set(IDEMPOTENCY_RECORDS.CREATED_AT, org.jooq.impl.DSL.currentOffsetDateTime())
        .where(IDEMPOTENCY_RECORDS.EXPIRES_AT.le(org.jooq.impl.DSL.currentOffsetDateTime()))
        .execute() == 1;
  }

  @Override
  public long deleteExpired(Instant now) {
    return dsl.deleteFrom(IDEMPOTENCY_RECORDS)
        .where(IDEMPOTENCY_RECORDS.EXPIRES_AT.le(Times.of(now))).execute();
  }
}
