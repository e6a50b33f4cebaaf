package io.floe.adapters.icechunk.engine;

import io.floe.domain.StoragePath;
import java.time.Instant;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * Where a repository's objects live, as this engine needs them: objects by key (a path relative
 * to the store's root), with the conditional writes Icechunk's atomic commits rely on. The engine
 * knows nothing else of storage; the server's buckets are adapted to it in {@code port}.
 */
public interface ObjectStore {
  /**
   * An object's bytes and the version they were read at: opaque, and only good for a later
   * {@link #putIfVersion} of the same key.
   */
  record Stored(byte[] data, String version) {
    public Stored {
      Objects.requireNonNull(data, "data");
      Objects.requireNonNull(version, "version");
    }
  }

  /** One object as a listing reports it: its key, its size and when it was last written. */
  record Listed(StoragePath key, long sizeBytes, Instant lastModified) {
    public Listed {
      Objects.requireNonNull(key, "key");
      Objects.requireNonNull(lastModified, "lastModified");
    }
  }

  Optional<Stored> get(StoragePath key);

  /** Reads {@code length} bytes from {@code offset}; fewer when the object is shorter. */
  Optional<byte[]> getRange(StoragePath key, long offset, int length);

  void put(StoragePath key, byte[] data);

  /** Writes only if nothing exists at {@code key}; false when something did. */
  boolean putIfAbsent(StoragePath key, byte[] data);

  /** Replaces the object only if it still is at {@code expectedVersion}; false otherwise. */
  boolean putIfVersion(StoragePath key, byte[] data, String expectedVersion);

  boolean exists(StoragePath key);

  /** Keys under {@code prefix} (segment-wise), in lexicographic order, at most {@code limit}. */
  List<StoragePath> list(StoragePath prefix, int limit);

  /** As {@link #list}, with each object's size and last write. */
  List<Listed> listObjects(StoragePath prefix, int limit);
}
