package io.floe.application.port.out;

import java.time.Instant;
import java.util.Collection;
import java.util.UUID;

/**
 * The pointers from tables and views to their current metadata files. They move only by
 * compare-and-swap, and only through the catalog's one committer.
 */
public interface MetadataPointers {
  /**
   * Moves the pointer only if it still is {@code expectedLocation}: the compare-and-swap every
   * commit goes through. False when another writer moved it first (or the object is gone).
   * Joins the caller's transaction.
   */
  boolean swap(UUID objectId, String expectedLocation, String newLocation, Instant now);

  /**
   * Locks the objects' rows until the surrounding transaction ends, always in the same order so
   * that two committers locking overlapping sets cannot deadlock. Meanwhile nobody else's swap of
   * these pointers can succeed.
   */
  void lockForCommit(Collection<UUID> objectIds);
}
