package io.floe.application.port.out.inmemory;

import io.floe.application.port.out.DroppedTableClaimStore;
import io.floe.application.port.out.inmemory.InMemoryDatabase.ClaimRow;
import io.floe.domain.PrefixClaim;
import java.util.List;
import java.util.Optional;
import java.util.UUID;

/** Claims of dropped tables, by the namespace {@link InMemoryCatalogObjectStore} recorded. */
public final class InMemoryDroppedTableClaimStore implements DroppedTableClaimStore {
  private final InMemoryDatabase db;

  public InMemoryDroppedTableClaimStore(InMemoryDatabase db) {
    this.db = db;
  }

  @Override
  public List<PrefixClaim> droppedFrom(UUID namespaceId) {
    return db.statement(() -> db.claims.values().stream()
        .filter(row -> row.droppedFromNamespace().equals(Optional.of(namespaceId)))
        .map(ClaimRow::claim).toList());
  }
}
