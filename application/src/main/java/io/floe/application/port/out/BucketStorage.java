package io.floe.application.port.out;

import io.floe.domain.StoragePath;
import java.util.List;
import java.util.Optional;

/**
 * Object storage in one bucket, addressed by keys relative to the bucket root. Every platform
 * (local filesystem, S3 and S3-compatible, GCS) offers the same guarantees, including the
 * conditional writes Icechunk's atomic commits rely on.
 */
public interface BucketStorage {

  Optional<StoredObject> get(StoragePath key);

  /** Reads {@code length} bytes from {@code offset}; fewer when the object is shorter. */
  Optional<byte[]> getRange(StoragePath key, long offset, int length);

  void put(StoragePath key, byte[] data);

  /** Writes only if nothing exists at {@code key}; false when something did. */
  boolean putIfAbsent(StoragePath key, byte[] data);

  /**
   * Replaces the object only if its current version is {@code expectedVersion}; false when the
   * object changed or vanished since it was read.
   */
  boolean putIfVersion(StoragePath key, byte[] data, String expectedVersion);

  boolean exists(StoragePath key);

  /** Keys under {@code prefix} (segment-wise), in lexicographic order, at most {@code limit}. */
  List<StoragePath> list(StoragePath prefix, int limit);

  /**
   * As {@link #list}, with each object's size and last-modified time: what a garbage collector
   * needs to tell old unreachable objects from ones a writer has just stored.
   */
  List<ListedObject> listObjects(StoragePath prefix, int limit);

  /** Whether nothing at all is stored under {@code prefix}. */
  default boolean isEmptyUnder(StoragePath prefix) {
    return list(prefix, 1).isEmpty();
  }

  /**
   * Makes {@code location} ready for engines to write files directly in it, before anything is
   * stored there. Object stores have no directories and need nothing; a filesystem creates the
   * directory and its parents, because engines such as DuckDB do not. Stores nothing that
   * {@link #list} or {@link #isEmptyUnder} would see.
   */
  default void prepareLocation(StoragePath location) {
  }

  void delete(StoragePath key);

  /** Deletes everything under {@code prefix}; returns how many objects were removed. */
  long deleteUnder(StoragePath prefix);

  /** The URI engines and FileIO implementations use for {@code key}. */
  String uri(StoragePath key);
}
