package io.floe.application.port.out;

import io.floe.domain.BucketConfig;
import io.floe.domain.RepoCommit;
import io.floe.domain.RepoNode;
import io.floe.domain.RepoRefs;
import io.floe.domain.RepoTables;
import io.floe.domain.StoragePath;
import java.util.List;

/**
 * The Icechunk repositories behind an org's repos, read and written in the bucket they live in.
 *
 * <p>A {@code ref} names a point of history the way people write it: a branch name, else a tag
 * name, else a snapshot id. Asking for a ref, node or repository that does not exist throws
 * {@link RepoContentNotFoundException}; a repository that cannot be read throws
 * {@link StorageException}.
 */
public interface IcechunkRepositories {

  /**
   * Initializes an empty repository (branch {@code main} at the initial commit) at a prefix that
   * Floe has just claimed: it may hold the claim's marker object, nothing else.
   */
  void create(BucketConfig bucket, StoragePath prefix, String markerName);

  RepoRefs refs(BucketConfig bucket, StoragePath prefix);

  /** The history reachable from {@code ref}, newest first, at most {@code limit} commits. */
  List<RepoCommit> log(BucketConfig bucket, StoragePath prefix, String ref, int limit);

  /** The group or array at {@code path} ("/" is the root group) as of {@code ref}. */
  RepoNode node(BucketConfig bucket, StoragePath prefix, String ref, String path);

  /** The Iceberg tables the snapshot {@code ref} names declares, by the icechest convention. */
  RepoTables tables(BucketConfig bucket, StoragePath prefix, String ref);
}
