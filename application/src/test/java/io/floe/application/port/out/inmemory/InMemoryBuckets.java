package io.floe.application.port.out.inmemory;

import io.floe.application.port.out.BucketStorageProvider;
import io.floe.domain.BucketConfig;
import io.floe.domain.StoragePath;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;

/** One {@link InMemoryBucketStorage} per bucket configuration, kept for the provider's life. */
public final class InMemoryBuckets implements BucketStorageProvider {
  private final Map<UUID, InMemoryBucketStorage> buckets = new ConcurrentHashMap<>();

  /** The bucket's storage; the same object for every call, so a test sees what was written. */
  @Override
  public InMemoryBucketStorage open(BucketConfig bucket) {
    return buckets.computeIfAbsent(bucket.id(),
        id -> new InMemoryBucketStorage(bucket.uriOf(StoragePath.root())));
  }
}
