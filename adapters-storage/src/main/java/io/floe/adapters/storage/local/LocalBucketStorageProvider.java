package io.floe.adapters.storage.local;

import io.floe.application.port.out.BucketStorage;
import io.floe.domain.BucketConfig;
import io.floe.domain.StoragePlatform;
import java.nio.file.Path;

/** Opens buckets on the {@code local} platform: the bucket name is an absolute directory path. */
public final class LocalBucketStorageProvider {
  public BucketStorage open(BucketConfig bucket) {
    if (bucket.platform() != StoragePlatform.LOCAL) {
      throw new IllegalArgumentException("not a local bucket: " + bucket.nickname());
    }
    return new LocalBucketStorage(Path.of(bucket.bucket()));
  }
}
