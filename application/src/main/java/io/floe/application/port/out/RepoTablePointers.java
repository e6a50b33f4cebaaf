package io.floe.application.port.out;

import io.floe.domain.BucketConfig;
import io.floe.domain.StoragePath;
import java.util.List;
import java.util.Optional;
import java.util.SortedMap;

/**
 * The Iceberg tables a repo's Icechunk history declares (the icechest convention): at every
 * snapshot, which tables exist, where their files live and which {@code metadata.json} is each
 * one's current version. Pointers move only by an Icechunk commit on a branch, which also carries
 * every other table's pointer forward and leaves the arrays as they are.
 *
 * <p>Missing repositories, refs and snapshots throw {@link RepoContentNotFoundException};
 * unreadable ones {@link StorageException}.
 */
public interface RepoTablePointers {

  /** What a ref names. Only a branch moves; a tag or a snapshot is a fixed version. */
  enum RefKind { BRANCH, TAG, SNAPSHOT }

  /** A declared table; {@code metadataLocation} is empty when the snapshot lacks its pointer. */
  record RepoTable(String name, String group, String location, Optional<String> metadataLocation) {}

  /**
   * The tables of one snapshot, read through a ref. {@code problems} describes what is malformed
   * (a declared table without a pointer, a table declared twice, an invalid declaration).
   */
  record Version(String ref, RefKind kind, String snapshotId, SortedMap<String, RepoTable> tables,
      List<String> problems) {}

  /** Moves a declared table from the pointer the change was planned on to a new one. */
  record Move(String table, String expectedMetadataLocation, String metadataLocation) {}

  /** Declares a new table on a Zarr group, with its first metadata.json. */
  record Declaration(String group, String table, String location, String metadataLocation) {}

  /** One Icechunk commit on {@code branch}. */
  record Commit(String branch, List<Move> moves, List<Declaration> declarations, String message) {
    public Commit {
      moves = List.copyOf(moves);
      declarations = List.copyOf(declarations);
    }
  }

  /** The tables at {@code ref}: a branch name, else a tag name, else a snapshot id. */
  Version read(BucketConfig bucket, StoragePath prefix, String ref);

  /**
   * Commits the moves and declarations as one Icechunk commit on the branch, each only if its
   * table is still as the change found it: a moved table still at its expected pointer, a
   * declared one still undeclared. Commits others made meanwhile to arrays or other tables are
   * kept (the commit rebases onto them). Returns the new snapshot id, or empty when a table the
   * commit touches changed meanwhile and the change must be planned again.
   */
  Optional<String> commit(BucketConfig bucket, StoragePath prefix, Commit commit);
}
