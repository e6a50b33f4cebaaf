package io.floe.domain;

import java.util.Collection;
import java.util.Objects;
import java.util.Optional;
import java.util.UUID;

/**
 * A storage prefix owned by one namespace, table or repo. No two live claims on one bucket may
 * overlap: equal, parent or child prefixes are all refused, so that each owner can treat
 * everything under its prefix as its own.
 */
public record PrefixClaim(UUID bucketId, StoragePath path, Owner owner) {

  public enum OwnerKind { NAMESPACE, TABLE, REPO }

  public record Owner(OwnerKind kind, UUID id) {
    public Owner {
      Objects.requireNonNull(kind, "kind");
      Objects.requireNonNull(id, "id");
    }
  }

  public PrefixClaim {
    Objects.requireNonNull(bucketId, "bucketId");
    Objects.requireNonNull(path, "path");
    Objects.requireNonNull(owner, "owner");
    if (path.isRoot()) {
      throw new DomainException("a claim cannot cover a whole bucket");
    }
  }

  public boolean conflictsWith(PrefixClaim other) {
    return bucketId.equals(other.bucketId) && path.overlaps(other.path);
  }

  /** The first existing claim this one would overlap, if any. */
  public Optional<PrefixClaim> firstConflict(Collection<PrefixClaim> existing) {
    return existing.stream().filter(this::conflictsWith).findFirst();
  }
}
