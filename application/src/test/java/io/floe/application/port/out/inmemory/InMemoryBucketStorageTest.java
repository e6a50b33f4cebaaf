package io.floe.application.port.out.inmemory;

import io.floe.application.port.out.BucketStorage;
import io.floe.application.port.out.contract.BucketStorageContract;
import io.floe.domain.StoragePath;

/** The object storage contract, on the in-memory bucket service tests store their files in. */
class InMemoryBucketStorageTest extends BucketStorageContract {
  private final BucketStorage storage = new InMemoryBucketStorage("s3://data");

  @Override
  protected BucketStorage storage() {
    return storage;
  }

  @Override
  protected String expectedUri(StoragePath key) {
    return "s3://data/" + key;
  }
}
