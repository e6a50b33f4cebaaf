package io.floe.application.port.out;

import io.floe.domain.BucketConfig;
import java.util.Optional;

/** Opens the storage of a bucket configuration, with the server's own credentials. */
public interface BucketStorageProvider {
  BucketStorage open(BucketConfig bucket);

  /**
   * The bucket's objects as streams, for the platforms whose objects Floe serves over its own
   * S3 endpoint (local buckets); empty for the others, which clients reach directly.
   */
  default Optional<StreamingBucketStorage> streaming(BucketConfig bucket) {
    return Optional.empty();
  }
}
