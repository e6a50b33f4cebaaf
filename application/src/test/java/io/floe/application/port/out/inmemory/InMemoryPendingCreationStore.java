package io.floe.application.port.out.inmemory;

import io.floe.application.port.out.PendingCreationStore;
import io.floe.domain.CatalogName;
import java.time.Instant;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.UUID;

/** The journal of creations in flight, in memory; the locks are the transaction's. */
public final class InMemoryPendingCreationStore implements PendingCreationStore {
  private final InMemoryDatabase db;

  public InMemoryPendingCreationStore(InMemoryDatabase db) {
    this.db = db;
  }

  @Override
  public void record(Pending pending) {
    db.statement(() -> {
      if (db.pending.containsKey(pending.ownerId())) {
        throw InMemoryDatabase.uniqueViolation("pending_creations_pkey");
      }
      // Only the name's key is kept: it is all a repair needs.
      db.pending.put(pending.ownerId(), new Pending(pending.ownerId(), pending.orgId(),
          pending.kind(), new CatalogName(pending.name().key()), pending.bucketId(),
          pending.prefix(), pending.startedAt()));
    });
  }

  @Override
  public boolean finish(UUID ownerId) {
    return db.statement(() -> db.pending.remove(ownerId));
  }

  @Override
  public Optional<Pending> lock(UUID ownerId) {
    return db.statement(() -> db.pending.get(ownerId));
  }

  @Override
  public List<Pending> lockStartedBefore(Instant cutoff, int limit) {
    return db.statement(() -> db.pending.values().stream()
        .filter(pending -> pending.startedAt().isBefore(cutoff))
        .sorted(Comparator.comparing(Pending::startedAt))
        .limit(limit)
        .toList());
  }
}
