package io.floe.application.port.out;

import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.UUID;

/**
 * The soft-delete lifecycle of one kind of prefix owner (namespaces, repos): an owner is marked
 * deleted with a recovery period, then cleaned up in recorded steps that a crash may interrupt
 * anywhere and the next pass resumes. {@link #lockForCleanup} takes a row lock, skipping rows
 * another pass holds, until the surrounding transaction ends.
 *
 * @param <T> the owner, as its kind's store reads it
 */
public interface SoftDeleteStore<T> {
  /** A soft-deleted owner and how far its cleanup got. */
  record Deleted<T>(T owner, Instant purgeAfter, boolean retainData, boolean nameReleased,
      int cleanupAttempts) {}

  /**
   * Soft-deletes a live owner; with {@code nameReleased} its name is already given up. An owner
   * deleted already stays as it was.
   */
  void markDeleted(UUID id, Instant now, Instant purgeAfter, boolean retainData,
      boolean nameReleased);

  /**
   * Deleted owners whose recovery period ended by {@code now}, optionally of one org, the longest
   * due first.
   */
  List<UUID> dueForCleanup(Optional<UUID> orgId, Instant now, int limit);

  /** Locks a deleted owner for cleanup; empty when another pass holds it or it is gone. */
  Optional<Deleted<T>> lockForCleanup(UUID id);

  void markNameReleased(UUID id, Instant now);

  /** Counts one more cleanup attempt; the count tells operators about an owner that sticks. */
  void recordCleanupAttempt(UUID id, Instant now);

  /** Adds {@code objectsDeleted} to the owner's tally and records the last error, if any. */
  void recordCleanupProgress(UUID id, long objectsDeleted, Optional<String> error, Instant now);

  /**
   * Removes the owner's row for good, and the grants on it; its name and claims must be released
   * already.
   */
  void purge(UUID id);
}
