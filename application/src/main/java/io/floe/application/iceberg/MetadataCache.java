package io.floe.application.iceberg;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.Function;

/**
 * Parsed metadata files keyed by location. Metadata files are immutable once written, so an entry
 * never goes stale; the cache only bounds how many it keeps, least recently used first out.
 */
public final class MetadataCache<T> {
  private final Map<String, T> entries;

  public MetadataCache(int capacity) {
    this.entries = new LinkedHashMap<>(capacity, 0.75f, true) {
      @Override
      protected boolean removeEldestEntry(Map.Entry<String, T> eldest) {
        return size() > capacity;
      }
    };
  }

  public T get(String location, Function<String, T> loader) {
    synchronized (entries) {
      T cached = entries.get(location);
      if (cached != null) {
        return cached;
      }
    }
    // Parse outside the lock: two threads may parse the same file once each, which is harmless.
    T loaded = loader.apply(location);
    synchronized (entries) {
      entries.put(location, loaded);
    }
    return loaded;
  }
}
