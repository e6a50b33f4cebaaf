package io.floe.adapters.storage.shared;

import io.floe.application.port.out.RefusedLocationException;
import io.floe.domain.BucketConfig;
import io.floe.domain.StoragePath;

/**
 * The part of a bucket a configuration may use, as the storage adapters enforce it: every key
 * they read, write, list or delete lies beneath the configuration's prefix. (A {@link
 * StoragePath} has no empty, '.' or '..' segment, so a key cannot climb out of it.)
 */
public final class BucketPrefix {
  private BucketPrefix() {}

  /** Returns {@code key}, refused unless it lies at or beneath the bucket's prefix. */
  public static StoragePath require(BucketConfig bucket, StoragePath key) {
    if (!key.isWithin(bucket.prefix())) {
      throw new RefusedLocationException("key '" + key + "' is not beneath the prefix '"
          + bucket.prefix() + "' of bucket configuration '" + bucket.nickname() + "'");
    }
    return key;
  }
}
