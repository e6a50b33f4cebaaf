package io.floe.application.port.out;

import io.floe.domain.CatalogName;
import io.floe.domain.PrefixClaim.OwnerKind;
import java.time.Instant;
import java.util.Optional;
import java.util.UUID;

/** The one set of names an org's namespaces and repos share, compared case-insensitively. */
public interface NameRegistry {
  /**
   * Who holds a name. {@code restorableUntil} is set when the holder is soft-deleted: the end of
   * its recovery period, until which it can be restored and after which the cleanup pass frees
   * the name.
   */
  record Holder(OwnerKind kind, UUID ownerId, Optional<Instant> restorableUntil) {
    public Holder(OwnerKind kind, UUID ownerId) {
      this(kind, ownerId, Optional.empty());
    }
  }

  /** Reserves the name for an owner; empty when it was free, else who holds it. */
  Optional<Holder> reserve(UUID orgId, CatalogName name, OwnerKind kind, UUID ownerId);

  void release(UUID orgId, CatalogName name);

  /**
   * Releases the name only while {@code ownerId} holds it: an owner whose name was given up
   * earlier must not free it from whoever took it since.
   */
  void releaseIfHeldBy(UUID orgId, CatalogName name, UUID ownerId);
}
