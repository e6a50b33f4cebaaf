package io.floe.adapters.icechunk.port;

import io.floe.adapters.icechunk.engine.ObjectStore;
import io.floe.application.port.out.BucketStorage;
import io.floe.domain.StoragePath;
import java.util.List;
import java.util.Optional;

/** A bucket of the server as the objects of the repositories it holds. */
public final class BucketObjectStore implements ObjectStore {
  private final BucketStorage bucket;

  private BucketObjectStore(BucketStorage bucket) {
    this.bucket = bucket;
  }

  public static ObjectStore of(BucketStorage bucket) {
    return new BucketObjectStore(bucket);
  }

  @Override
  public Optional<Stored> get(StoragePath key) {
    return bucket.get(key).map(object -> new Stored(object.data(), object.version()));
  }

  @Override
  public Optional<byte[]> getRange(StoragePath key, long offset, int length) {
    return bucket.getRange(key, offset, length);
  }

  @Override
  public void put(StoragePath key, byte[] data) {
    bucket.put(key, data);
  }

  @Override
  public boolean putIfAbsent(StoragePath key, byte[] data) {
    return bucket.putIfAbsent(key, data);
  }

  @Override
  public boolean putIfVersion(StoragePath key, byte[] data, String expectedVersion) {
    return bucket.putIfVersion(key, data, expectedVersion);
  }

  @Override
  public boolean exists(StoragePath key) {
    return bucket.exists(key);
  }

  @Override
  public List<StoragePath> list(StoragePath prefix, int limit) {
    return bucket.list(prefix, limit);
  }

  @Override
  public List<Listed> listObjects(StoragePath prefix, int limit) {
    return bucket.listObjects(prefix, limit).stream()
        .map(object -> new Listed(object.key(), object.sizeBytes(), object.lastModified()))
        .toList();
  }
}
