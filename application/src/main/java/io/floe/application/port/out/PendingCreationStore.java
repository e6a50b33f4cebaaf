package io.floe.application.port.out;

import io.floe.domain.CatalogName;
import io.floe.domain.PrefixClaim;
import io.floe.domain.StoragePath;
import java.time.Instant;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.UUID;

/**
 * The journal of creations in flight. A creation first commits its name, its prefix claim and a
 * row here; then writes its marker; then commits the owner's row and removes this one. A row left
 * here means the creation never finished, and tells the repair pass what to undo.
 */
public interface PendingCreationStore {
  record Pending(UUID ownerId, UUID orgId, PrefixClaim.OwnerKind kind, CatalogName name,
      UUID bucketId, StoragePath prefix, Instant startedAt) {
    public Pending {
      Objects.requireNonNull(ownerId, "ownerId");
      Objects.requireNonNull(orgId, "orgId");
      Objects.requireNonNull(kind, "kind");
      Objects.requireNonNull(name, "name");
      Objects.requireNonNull(bucketId, "bucketId");
      Objects.requireNonNull(prefix, "prefix");
      Objects.requireNonNull(startedAt, "startedAt");
    }
  }

  void record(Pending pending);

  /** Removes the journal row; false when it was gone (a repair pass undid the creation). */
  boolean finish(UUID ownerId);

  /**
   * The creation's journal row, locked for the caller. Its name comes back in the form names are
   * compared in ({@link CatalogName#key()}): the key is all a repair needs.
   */
  Optional<Pending> lock(UUID ownerId);

  /**
   * Creations started before {@code cutoff} that never finished, oldest first, each locked for
   * the caller; one that another transaction holds (its creation is finishing) is skipped.
   */
  List<Pending> lockStartedBefore(Instant cutoff, int limit);
}
