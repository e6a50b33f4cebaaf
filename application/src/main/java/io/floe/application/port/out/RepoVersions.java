package io.floe.application.port.out;

import io.floe.domain.BucketConfig;
import io.floe.domain.StoragePath;
import java.util.List;
import java.util.Optional;
import java.util.SortedMap;

/**
 * The versions of a repo's Icechunk history and the Iceberg tables each declares (the icechest
 * convention): at every snapshot, which tables exist, where their files live and which
 * {@code metadata.json} is each one's current version. Reading only: a branch's table pointers
 * move through {@link MetadataPointers}, by the catalog's one committer.
 *
 * <p>Missing repositories, refs and snapshots throw {@link RepoContentNotFoundException};
 * unreadable ones {@link StorageException}.
 */
public interface RepoVersions {

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

  /** The tables at {@code ref}: a branch name, else a tag name, else a snapshot id. */
  Version read(BucketConfig bucket, StoragePath prefix, String ref);
}
