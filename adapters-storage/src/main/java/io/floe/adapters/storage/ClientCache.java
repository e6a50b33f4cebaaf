package io.floe.adapters.storage;

import io.floe.domain.BucketConfig;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;

/**
 * One client per bucket configuration, built on first use: SDK clients and FileIOs hold
 * connection pools and are meant to be shared. A configuration that changed (new keys, another
 * endpoint) gets a new client; the old one is closed only when the server stops, since requests
 * may still be using it.
 */
final class ClientCache<T extends AutoCloseable> implements AutoCloseable {
  private record Entry<T>(BucketConfig bucket, T client) {}

  private final Map<UUID, Entry<T>> clients = new ConcurrentHashMap<>();
  private final List<T> retired = new ArrayList<>();
  private final Function<BucketConfig, T> factory;

  ClientCache(Function<BucketConfig, T> factory) {
    this.factory = factory;
  }

  T get(BucketConfig bucket) {
    return clients.compute(bucket.id(), (id, current) -> {
      if (current != null && current.bucket().equals(bucket)) {
        return current;
      }
      if (current != null) {
        synchronized (retired) {
          retired.add(current.client());
        }
      }
      return new Entry<>(bucket, factory.apply(bucket));
    }).client();
  }

  @Override
  public void close() {
    List<T> all = new ArrayList<>();
    clients.values().forEach(entry -> all.add(entry.client()));
    clients.clear();
    synchronized (retired) {
      all.addAll(retired);
      retired.clear();
    }
    for (T client : all) {
      try {
        client.close();
      } catch (Exception ignored) {
        // Shutting down: a client that fails to close has nothing left to lose.
      }
    }
  }
}
