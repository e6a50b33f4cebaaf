package io.floe.application.port.out;

import io.floe.domain.BucketConfig;

/** Opens the storage of a bucket configuration, with the server's own credentials. */
public interface BucketStorageProvider {
  BucketStorage open(BucketConfig bucket);
}
