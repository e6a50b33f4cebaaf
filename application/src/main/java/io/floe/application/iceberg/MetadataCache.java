package io.floe.application.iceberg;

import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.Function;

/**
 * Parsed metadata files keyed by location. Metadata files are immutable once written, so an entry
 * never goes stale; the cache only bounds what it keeps, least recently used first out.
 *
 * <p>The bound is the files' size in bytes, not their number: every commit makes a new file, and
 * a table's files grow with its history (up to a hundred earlier versions and every live
 * snapshot), so a bound by count let the cache hold a heap's worth of large files under a stream
 * of commits. A file larger than the whole bound is parsed but not kept.
 */
public final class MetadataCache<T> {
  /** A parsed file and the number of bytes it was parsed from. */
  public record Sized<T>(T value, long bytes) {}

  private final long capacityBytes;
  private final LinkedHashMap<String, Sized<T>> entries = new LinkedHashMap<>(64, 0.75f, true);
  private long bytes;

  public MetadataCache(long capacityBytes) {
    this.capacityBytes = capacityBytes;
  }

  public T get(String location, Function<String, Sized<T>> loader) {
    synchronized (entries) {
      Sized<T> cached = entries.get(location);
      if (cached != null) {
        return cached.value();
      }
    }
    // Parse outside the lock: two threads may parse the same file once each, which is harmless.
    Sized<T> loaded = loader.apply(location);
    put(location, loaded);
    return loaded.value();
  }

  /** Keeps a file's parsed form that is known without reading it (one just written). */
  public void put(String location, Sized<T> parsed) {
    if (parsed.bytes() <= capacityBytes) {
      synchronized (entries) {
        keep(location, parsed);
      }
    }
  }

  /** Bytes of the files kept now. */
  long bytes() {
    synchronized (entries) {
      return bytes;
    }
  }

  private void keep(String location, Sized<T> loaded) {
    Sized<T> replaced = entries.put(location, loaded);
    bytes += loaded.bytes() - (replaced == null ? 0 : replaced.bytes());
    Iterator<Map.Entry<String, Sized<T>>> eldestFirst = entries.entrySet().iterator();
    while (bytes > capacityBytes && eldestFirst.hasNext()) {
      bytes -= eldestFirst.next().getValue().bytes();
      eldestFirst.remove();
    }
  }
}
