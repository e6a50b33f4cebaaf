package io.floe.application.port.out.inmemory;

import io.floe.application.port.out.PrefixClaimStore;
import io.floe.application.port.out.inmemory.InMemoryDatabase.ClaimKey;
import io.floe.application.port.out.inmemory.InMemoryDatabase.ClaimRow;
import io.floe.domain.PrefixClaim;
import io.floe.domain.StoragePath;
import java.util.List;
import java.util.Optional;
import java.util.UUID;

/** Prefix claims in memory; overlap is the domain's own, segment-wise rule. */
public final class InMemoryPrefixClaimStore implements PrefixClaimStore {
  private final InMemoryDatabase db;

  public InMemoryPrefixClaimStore(InMemoryDatabase db) {
    this.db = db;
  }

  @Override
  public List<PrefixClaim> overlapping(UUID bucketId, StoragePath path) {
    return db.statement(() -> db.claims.values().stream().map(ClaimRow::claim)
        .filter(claim -> claim.bucketId().equals(bucketId) && claim.path().overlaps(path))
        .toList());
  }

  @Override
  public void insert(PrefixClaim claim) {
    db.statement(() -> {
      ClaimKey key = new ClaimKey(claim.bucketId(), claim.path().value());
      if (db.claims.containsKey(key)) {
        throw InMemoryDatabase.uniqueViolation("prefix_claims_pkey");
      }
      db.claims.put(key, new ClaimRow(claim, Optional.empty()));
    });
  }

  @Override
  public void releaseAllOf(UUID ownerId) {
    db.statement(() -> db.claims.rows().values()
        .removeIf(row -> row.claim().owner().id().equals(ownerId)));
  }
}
