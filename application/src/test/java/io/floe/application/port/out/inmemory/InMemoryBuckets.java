package io.floe.application.port.out.inmemory;

import io.floe.application.port.out.BucketStorageProvider;
import io.floe.domain.BucketConfig;
import io.floe.domain.StoragePath;
import java.time.Clock;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;

/** One {@link InMemoryBucketStorage} per bucket configuration, kept for the provider's life. */
public final class InMemoryBuckets implements BucketStorageProvider {
  private final Map<UUID, InMemoryBucketStorage> buckets = new ConcurrentHashMap<>();
  private final Clock clock;

  /** Buckets whose objects are last modified at the time of day. */
  public InMemoryBuckets() {
    this(Clock.systemUTC());
  }

  /** Buckets whose objects are last modified at {@code clock}'s instant. */
  public InMemoryBuckets(Clock clock) {
    this.clock = clock;
  }

  /** The bucket's storage; the same object for every call, so a test sees what was written. */
  @Override
  public InMemoryBucketStorage open(BucketConfig bucket) {
    return buckets.computeIfAbsent(bucket.id(),
        id -> new InMemoryBucketStorage(bucket.uriOf(StoragePath.root()), clock));
  }
}
