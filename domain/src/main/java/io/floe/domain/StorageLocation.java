package io.floe.domain;

import java.util.Objects;
import java.util.UUID;

/** A path inside one of the org's buckets. */
public record StorageLocation(UUID bucketId, StoragePath path) {
  public StorageLocation {
    Objects.requireNonNull(bucketId, "bucketId");
    Objects.requireNonNull(path, "path");
  }

  public boolean isWithin(StorageLocation other) {
    return bucketId.equals(other.bucketId) && path.isWithin(other.path);
  }
}
