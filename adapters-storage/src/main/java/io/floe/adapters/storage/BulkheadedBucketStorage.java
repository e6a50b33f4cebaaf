package io.floe.adapters.storage;

import io.floe.adapters.storage.shared.StorageBulkhead;
import io.floe.application.port.out.BucketStorage;
import io.floe.application.port.out.ListedObject;
import io.floe.application.port.out.StoredObject;
import io.floe.domain.BucketConfig;
import io.floe.domain.StoragePath;
import java.util.List;
import java.util.Optional;
import java.util.function.Supplier;

/**
 * A store's objects with every call through the bucket's {@link StorageBulkhead}: a store that
 * stopped answering holds at most the bulkhead's number of the server's threads.
 */
final class BulkheadedBucketStorage implements BucketStorage {
  private final BucketStorage delegate;
  private final BucketConfig bucket;
  private final StorageBulkhead bulkhead;

  BulkheadedBucketStorage(BucketStorage delegate, BucketConfig bucket, StorageBulkhead bulkhead) {
    this.delegate = delegate;
    this.bucket = bucket;
    this.bulkhead = bulkhead;
  }

  private <T> T call(Supplier<T> call) {
    return bulkhead.call(bucket, call::get);
  }

  private void run(Runnable call) {
    bulkhead.call(bucket, () -> {
      call.run();
      return null;
    });
  }

  @Override
  public Optional<StoredObject> get(StoragePath key) {
    return call(() -> delegate.get(key));
  }

  @Override
  public Optional<byte[]> getRange(StoragePath key, long offset, int length) {
    return call(() -> delegate.getRange(key, offset, length));
  }

  @Override
  public void put(StoragePath key, byte[] data) {
    run(() -> delegate.put(key, data));
  }

  @Override
  public boolean putIfAbsent(StoragePath key, byte[] data) {
    return call(() -> delegate.putIfAbsent(key, data));
  }

  @Override
  public boolean putIfVersion(StoragePath key, byte[] data, String expectedVersion) {
    return call(() -> delegate.putIfVersion(key, data, expectedVersion));
  }

  @Override
  public boolean exists(StoragePath key) {
    return call(() -> delegate.exists(key));
  }

  @Override
  public List<StoragePath> list(StoragePath prefix, int limit) {
    return call(() -> delegate.list(prefix, limit));
  }

  @Override
  public List<ListedObject> listObjects(StoragePath prefix, int limit) {
    return call(() -> delegate.listObjects(prefix, limit));
  }

  @Override
  public boolean isEmptyUnder(StoragePath prefix) {
    return call(() -> delegate.isEmptyUnder(prefix));
  }

  @Override
  public void prepareLocation(StoragePath location) {
    run(() -> delegate.prepareLocation(location));
  }

  @Override
  public void delete(StoragePath key) {
    run(() -> delegate.delete(key));
  }

  @Override
  public long deleteUnder(StoragePath prefix) {
    return call(() -> delegate.deleteUnder(prefix));
  }

  @Override
  public String uri(StoragePath key) {
    return delegate.uri(key);
  }
}
