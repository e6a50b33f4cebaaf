package io.floe.application.port.out;

import io.floe.domain.CatalogName;
import io.floe.domain.PrefixClaim.OwnerKind;
import java.util.Optional;
import java.util.UUID;

/** The one set of names an org's namespaces and repos share, compared case-insensitively. */
public interface NameRegistry {
  record Holder(OwnerKind kind, UUID ownerId) {}

  /** Reserves the name for an owner; empty when it was free, else who holds it. */
  Optional<Holder> reserve(UUID orgId, CatalogName name, OwnerKind kind, UUID ownerId);

  void release(UUID orgId, CatalogName name);

  /**
   * Releases the name only while {@code ownerId} holds it: an owner whose name was given up
   * earlier must not free it from whoever took it since.
   */
  void releaseIfHeldBy(UUID orgId, CatalogName name, UUID ownerId);
}
