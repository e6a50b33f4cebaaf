package io.floe.adapters.icechunk.engine;

import io.floe.adapters.icechunk.format.ObjectId12;
import java.util.function.Supplier;

/**
 * The one loop that commits to a branch another writer may move: on a conflict it rebases onto
 * the branch's new tip and tries again, at most a given number of times. Array sessions and
 * icechest's table sessions both commit through it.
 */
public final class RebasingCommits {
  private RebasingCommits() {}

  /** Runs {@code commit}, calling {@code rebase} after each conflict, at most {@code maxAttempts}
   * times; the last conflict is thrown when every attempt lost. */
  public static ObjectId12 commit(int maxAttempts, Supplier<ObjectId12> commit, Runnable rebase) {
    if (maxAttempts < 1) {
      throw new IllegalArgumentException("maxAttempts must be at least 1, got " + maxAttempts);
    }
    CommitConflictException last = null;
    for (int i = 0; i < maxAttempts; i++) {
      try {
        return commit.get();
      } catch (CommitConflictException e) {
        last = e;
        rebase.run();
      }
    }
    throw last;
  }
}
