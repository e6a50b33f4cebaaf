package io.floe.application.port.out.inmemory;

import io.floe.application.port.out.BucketStorage;
import io.floe.application.port.out.ListedObject;
import io.floe.application.port.out.StoredObject;
import io.floe.domain.StoragePath;
import java.time.Clock;
import java.time.Instant;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * One bucket's objects in memory, keyed by path in lexicographic order. Each write gets a new
 * version, so conditional writes behave as on a real store; every method holds the bucket's lock.
 */
public final class InMemoryBucketStorage implements BucketStorage {
  private final String uriRoot;
  private final Clock clock;
  private final Map<String, StoredObject> objects = new TreeMap<>();
  private final Map<String, Instant> modified = new HashMap<>();
  private long versions;

  /** @param uriRoot what {@link #uri} puts before a key, such as {@code s3://data} */
  public InMemoryBucketStorage(String uriRoot) {
    this(uriRoot, Clock.systemUTC());
  }

  /** Objects written are last modified at {@code clock}'s instant, as a test moves it. */
  public InMemoryBucketStorage(String uriRoot, Clock clock) {
    this.uriRoot = uriRoot;
    this.clock = clock;
  }

  @Override
  public synchronized Optional<StoredObject> get(StoragePath key) {
    return Optional.ofNullable(objects.get(key.value()))
        .map(object -> new StoredObject(object.data().clone(), object.version()));
  }

  @Override
  public synchronized Optional<byte[]> getRange(StoragePath key, long offset, int length) {
    return Optional.ofNullable(objects.get(key.value())).map(object -> {
      int from = (int) Math.min(offset, object.data().length);
      return Arrays.copyOfRange(object.data(), from,
          (int) Math.min((long) from + length, object.data().length));
    });
  }

  @Override
  public synchronized void put(StoragePath key, byte[] data) {
    objects.put(key.value(), new StoredObject(data.clone(), String.valueOf(++versions)));
    modified.put(key.value(), clock.instant());
  }

  @Override
  public synchronized boolean putIfAbsent(StoragePath key, byte[] data) {
    if (objects.containsKey(key.value())) {
      return false;
    }
    put(key, data);
    return true;
  }

  @Override
  public synchronized boolean putIfVersion(StoragePath key, byte[] data, String expectedVersion) {
    StoredObject current = objects.get(key.value());
    if (current == null || !current.version().equals(expectedVersion)) {
      return false;
    }
    put(key, data);
    return true;
  }

  @Override
  public synchronized boolean exists(StoragePath key) {
    return objects.containsKey(key.value());
  }

  @Override
  public synchronized List<StoragePath> list(StoragePath prefix, int limit) {
    return objects.keySet().stream().map(StoragePath::new)
        .filter(key -> key.isWithin(prefix) && !key.equals(prefix))
        .limit(limit).toList();
  }

  @Override
  public synchronized List<ListedObject> listObjects(StoragePath prefix, int limit) {
    return list(prefix, limit).stream().map(key -> new ListedObject(key,
        objects.get(key.value()).data().length, modified.get(key.value()))).toList();
  }

  @Override
  public synchronized void delete(StoragePath key) {
    objects.remove(key.value());
    modified.remove(key.value());
  }

  @Override
  public synchronized long deleteUnder(StoragePath prefix) {
    if (prefix.isRoot()) {
      throw new IllegalArgumentException("refusing to delete a whole bucket");
    }
    List<StoragePath> doomed = list(prefix, Integer.MAX_VALUE);
    doomed.forEach(this::delete);
    return doomed.size();
  }

  @Override
  public String uri(StoragePath key) {
    return key.isRoot() ? uriRoot : uriRoot + "/" + key.value();
  }

  /** Every key in the bucket, in order: what a test looks at to see what was written. */
  public synchronized List<StoragePath> keys() {
    return objects.keySet().stream().map(StoragePath::new).toList();
  }
}
