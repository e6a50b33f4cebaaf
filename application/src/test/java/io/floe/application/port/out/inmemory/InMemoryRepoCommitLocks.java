package io.floe.application.port.out.inmemory;

import io.floe.application.port.out.RepoCommitLocks;
import java.util.UUID;

/**
 * Repo branch locks over the in-memory database: a transaction already holds the whole database,
 * so no other one can hold a branch meanwhile. What is left to check is that the caller asks
 * inside a transaction, as the port requires.
 */
public final class InMemoryRepoCommitLocks implements RepoCommitLocks {
  private final InMemoryDatabase db;

  public InMemoryRepoCommitLocks(InMemoryDatabase db) {
    this.db = db;
  }

  @Override
  public void lockBranch(UUID repoId, String branch) {
    if (!db.inTransaction()) {
      throw new IllegalStateException("a branch lock lasts until its transaction ends: "
          + "take it inside one");
    }
  }
}
