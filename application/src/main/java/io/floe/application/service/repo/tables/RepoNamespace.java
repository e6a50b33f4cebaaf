package io.floe.application.service.repo.tables;

import io.floe.application.port.out.MalformedRepoException;
import io.floe.application.port.out.MetadataPointers;
import io.floe.application.port.out.RepoVersions;
import io.floe.application.port.out.RepoVersions.RefKind;
import io.floe.domain.BucketConfig;
import io.floe.domain.Repo;
import java.util.List;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.exceptions.ForbiddenException;

/**
 * A namespace that is a version of a repo: the repo, the bucket its files are on, and the tables
 * that version declares. Only a branch can be written; a tag or a snapshot is a fixed version.
 */
public record RepoNamespace(Repo repo, BucketConfig bucket, Namespace namespace,
    RepoVersions.Version version) {

  /** The URI of the repo's directory: every table it declares must lie inside it. */
  public String rootUri() {
    return bucket.uriOf(repo.location().path());
  }

  public boolean isWritable() {
    return version.kind() == RefKind.BRANCH;
  }

  /** The branch to commit to; a fixed version refuses with a 403 naming it. */
  public String requireBranch() {
    if (!isWritable()) {
      throw new ForbiddenException("%s is %s %s of repo %s, a fixed version: its tables are "
          + "read-only; write to a branch (%s or %s@<branch>)", namespace,
          version.kind() == RefKind.TAG ? "tag" : "snapshot", version.ref(), repo.name(),
          repo.name(), repo.name());
    }
    return version.ref();
  }

  /**
   * The branch to commit to, if a commit can be made on it: a fixed version refuses (403), and so
   * does a head that declares a table without a pointer (409), since every commit carries each
   * declared table's pointer forward and the convention forbids guessing one.
   */
  public String requireCommittable() {
    String branch = requireBranch();
    List<String> unpointed = version.tables().values().stream()
        .filter(table -> table.metadataLocation().isEmpty())
        .map(RepoVersions.RepoTable::name)
        .toList();
    if (!unpointed.isEmpty()) {
      throw new MalformedRepoException(String.format("Branch %s of repo %s is malformed at "
          + "snapshot %s: it declares %s without a pointer (%s); every commit carries each "
          + "declared table's pointer forward, so the branch takes none until a writer repairs "
          + "it", branch, repo.name(), version.snapshotId(), String.join(", ", unpointed),
          String.join("; ", version.problems())));
    }
    return branch;
  }

  /** The branch whose head commit keeps this version's pointers, if it can be committed to. */
  public MetadataPointers.RepoBranch branch() {
    return new MetadataPointers.RepoBranch(repo.id(), bucket, repo.location().path(),
        requireCommittable());
  }
}
