package io.floe.application.port.out.inmemory;

import io.floe.application.port.out.IdempotencyStore;
import io.floe.application.port.out.inmemory.InMemoryDatabase.IdempotencyKey;
import io.floe.application.port.out.inmemory.InMemoryDatabase.IdempotencyRow;
import java.time.Instant;
import java.util.Optional;
import java.util.UUID;

/** Recorded results per principal, org and key, in memory, with their expiry. */
public final class InMemoryIdempotencyStore implements IdempotencyStore {
  private final InMemoryDatabase db;

  public InMemoryIdempotencyStore(InMemoryDatabase db) {
    this.db = db;
  }

  @Override
  public Optional<Recorded> find(UUID orgId, UUID principalId, String key, Instant now) {
    return db.statement(() -> db.idempotency.get(new IdempotencyKey(orgId, principalId, key))
        .filter(row -> row.expiresAt().isAfter(now))
        .map(IdempotencyRow::recorded));
  }

  @Override
  public boolean record(UUID orgId, UUID principalId, String key, Recorded recorded,
      Instant expiresAt, Instant now) {
    return db.statement(() -> {
      IdempotencyKey id = new IdempotencyKey(orgId, principalId, key);
      // An expired record of the same key is replaced; a live one is kept.
      if (db.idempotency.get(id).filter(row -> row.expiresAt().isAfter(now)).isPresent()) {
        return false;
      }
      db.idempotency.put(id, new IdempotencyRow(recorded, expiresAt));
      return true;
    });
  }

  @Override
  public long deleteExpired(Instant now) {
    return db.statement(() -> {
      int before = db.idempotency.rows().size();
      db.idempotency.rows().values().removeIf(row -> !row.expiresAt().isAfter(now));
      return (long) (before - db.idempotency.rows().size());
    });
  }
}
