package io.floe.application.port.out;

import io.floe.domain.BucketConfig;
import io.floe.domain.StoragePath;
import java.time.Instant;
import java.util.Collection;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.UUID;

/**
 * The pointers from tables and views to their current metadata files, wherever a namespace keeps
 * them: a plain namespace one row per table or view in the catalog's database, a branch of a repo
 * every table's pointer in the commit at its head (the icechest convention). A {@link Key} says
 * where one lives. Pointers move only by compare-and-swap, every pointer of one commit together or
 * none, and only through the catalog's one committer.
 */
public interface MetadataPointers {
  /** Which pointer: whose it is and where it lives. */
  sealed interface Key permits Row, BranchTable {}

  /** A plain table's or view's pointer, in its row of the catalog. */
  record Row(UUID objectId) implements Key {
    public Row {
      Objects.requireNonNull(objectId, "objectId");
    }
  }

  /**
   * The pointer of {@code table}, declared by a branch of a repo with its files under
   * {@code location}, in the commit at the branch's head.
   */
  record BranchTable(RepoBranch branch, String table, String location) implements Key {
    public BranchTable {
      Objects.requireNonNull(branch, "branch");
      Objects.requireNonNull(table, "table");
      Objects.requireNonNull(location, "location");
    }
  }

  /** A branch of a repo whose files are under {@code prefix} on {@code bucket}. */
  record RepoBranch(UUID repoId, BucketConfig bucket, StoragePath prefix, String name) {
    public RepoBranch {
      Objects.requireNonNull(repoId, "repoId");
      Objects.requireNonNull(bucket, "bucket");
      Objects.requireNonNull(prefix, "prefix");
      Objects.requireNonNull(name, "name");
    }
  }

  /**
   * One pointer to move from {@code expected} to {@code next}. Without {@code expected}, the move
   * gives a table of a branch its first pointer and so declares it; catalog rows come into being
   * with their entry ({@link CatalogObjectStore#insert}), never by a move.
   */
  record Move(Key key, Optional<String> expected, String next) {
    public Move {
      Objects.requireNonNull(key, "key");
      Objects.requireNonNull(expected, "expected");
      Objects.requireNonNull(next, "next");
    }

    public static Move of(Key key, String expected, String next) {
      return new Move(key, Optional.of(expected), next);
    }
  }

  /** Where the pointer is now; empty when there is no such table or view. */
  Optional<String> current(Key key);

  /**
   * Moves every pointer, each only if it still is where the mover expects (a table to declare:
   * still undeclared). True when all moved; false, and none moved, when any had moved meanwhile
   * or its table is gone. Every moved pointer stays locked (as by {@link #lockForCommit}) until
   * the caller's transaction ends. Rows join that transaction and roll back with it; a branch's
   * commit is published at once, and keeps whatever others committed meanwhile to arrays and to
   * other tables.
   */
  boolean swap(List<Move> moves, Instant now);

  /**
   * Locks the pointers until the surrounding transaction ends, always in the same order so that
   * two committers locking overlapping sets cannot deadlock. Meanwhile no other Floe writer's
   * swap of them succeeds; writers outside Floe (Python icechunk on a branch) take no lock.
   */
  void lockForCommit(Collection<Key> keys);
}
