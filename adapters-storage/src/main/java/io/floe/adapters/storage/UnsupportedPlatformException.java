package io.floe.adapters.storage;

import io.floe.application.port.out.StorageException;
import io.floe.domain.BucketConfig;

/** This build of Floe cannot reach buckets on the configuration's platform. */
public final class UnsupportedPlatformException extends StorageException {
  public UnsupportedPlatformException(BucketConfig bucket) {
    super("bucket configuration '" + bucket.nickname() + "' is on platform '"
        + bucket.platform().wireName() + "', which this server cannot reach yet");
  }
}
