package io.floe.application.port.out;

import java.util.UUID;

/**
 * Turns for committing to a repo's branch, among every Floe replica on the database: the lock
 * is held until the caller's transaction ends. Writers outside Floe (Python icechunk) do not take
 * it; it only keeps Floe's own contended commits from racing each other.
 */
public interface RepoCommitLocks {
  /** Waits until no other transaction holds the branch's lock, then holds it. */
  void lockBranch(UUID repoId, String branch);
}
