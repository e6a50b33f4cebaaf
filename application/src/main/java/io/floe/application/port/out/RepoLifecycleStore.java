package io.floe.application.port.out;

import io.floe.domain.Repo;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.UUID;

/**
 * The end of a repo's life: its soft delete and the recorded progress of the cleanup that finally
 * removes it, step by step as for namespaces. {@link #lockForCleanup} takes a row lock until the
 * surrounding transaction ends.
 */
public interface RepoLifecycleStore {
  /** A soft-deleted repo and how far its cleanup got. */
  record Deleted(Repo repo, boolean retainData, boolean nameReleased, int cleanupAttempts) {}

  /** Soft-deletes a live repo; with {@code nameReleased} its name is already given up. */
  void markDeleted(UUID repoId, Instant now, Instant purgeAfter, boolean retainData,
      boolean nameReleased);

  /** Deleted repos whose recovery period ended by {@code now}, optionally of one org. */
  List<UUID> dueForCleanup(Optional<UUID> orgId, Instant now, int limit);

  /** Locks a deleted repo for cleanup; empty when another pass holds it or it is gone. */
  Optional<Deleted> lockForCleanup(UUID repoId);

  void markNameReleased(UUID repoId, Instant now);

  /** Counts one more cleanup attempt; the count tells operators about a repo that sticks. */
  void recordCleanupAttempt(UUID repoId, Instant now);

  /** Adds {@code objectsDeleted} to the repo's tally and records the last error, if any. */
  void recordCleanupProgress(UUID repoId, long objectsDeleted, Optional<String> error,
      Instant now);

  /** Removes the repo's row for good; its name and claim must be released already. */
  void purge(UUID repoId);
}
