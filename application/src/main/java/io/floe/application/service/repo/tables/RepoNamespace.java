package io.floe.application.service.repo.tables;

import io.floe.application.port.out.RepoTablePointers;
import io.floe.application.port.out.RepoTablePointers.RefKind;
import io.floe.domain.BucketConfig;
import io.floe.domain.Repo;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.exceptions.ForbiddenException;

/**
 * A namespace that is a version of a repo: the repo, the bucket its files are on, and the tables
 * that version declares. Only a branch can be written; a tag or a snapshot is a fixed version.
 */
public record RepoNamespace(Repo repo, BucketConfig bucket, Namespace namespace,
    RepoTablePointers.Version version) {

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
}
