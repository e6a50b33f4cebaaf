package io.floe.application.port.out.inmemory;

import io.floe.application.port.out.NameRegistry;
import io.floe.application.port.out.inmemory.InMemoryDatabase.NameKey;
import io.floe.domain.CatalogName;
import io.floe.domain.PrefixClaim.OwnerKind;
import java.time.Instant;
import java.util.Optional;
import java.util.UUID;

/** The org-wide set of names in memory, keyed by the lowercase name. */
public final class InMemoryNameRegistry implements NameRegistry {
  private final InMemoryDatabase db;

  public InMemoryNameRegistry(InMemoryDatabase db) {
    this.db = db;
  }

  @Override
  public Optional<Holder> reserve(UUID orgId, CatalogName name, OwnerKind kind, UUID ownerId) {
    return db.statement(() -> {
      NameKey key = new NameKey(orgId, name.key());
      Optional<Holder> holder = db.names.get(key);
      if (holder.isEmpty()) {
        db.names.put(key, new Holder(kind, ownerId));
      }
      return holder.map(held -> new Holder(held.kind(), held.ownerId(),
          restorableUntil(held.ownerId())));
    });
  }

  @Override
  public void release(UUID orgId, CatalogName name) {
    db.statement(() -> db.names.remove(new NameKey(orgId, name.key())));
  }

  @Override
  public void releaseIfHeldBy(UUID orgId, CatalogName name, UUID ownerId) {
    db.statement(() -> {
      NameKey key = new NameKey(orgId, name.key());
      if (db.names.get(key).filter(holder -> holder.ownerId().equals(ownerId)).isPresent()) {
        db.names.remove(key);
      }
    });
  }

  /** The end of the holder's recovery period when it is a soft-deleted namespace or repo. */
  private Optional<Instant> restorableUntil(UUID ownerId) {
    return db.namespaces.get(ownerId)
        .filter(row -> row.owner().deletedAt().isPresent()).flatMap(row -> row.purgeAfter())
        .or(() -> db.repos.get(ownerId)
            .filter(row -> row.owner().deletedAt().isPresent()).flatMap(row -> row.purgeAfter()));
  }
}
