package io.floe.application.service.catalog;

import io.floe.application.port.out.MetadataPointers;
import io.floe.application.port.out.RepoVersions.RepoTable;
import io.floe.application.security.AccessPolicy;
import io.floe.application.security.OrgContext;
import io.floe.application.service.repo.tables.RepoNamespace;
import io.floe.application.service.repo.tables.RepoTableProperties;
import io.floe.domain.Action;
import io.floe.domain.BucketConfig;
import io.floe.domain.StoragePath;
import org.apache.iceberg.TableMetadata;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.exceptions.NoSuchTableException;

/**
 * A table a version of a repo declares. Its pointer lives in the version's Icechunk commit and
 * moves only on a branch: a tag or a snapshot is read-only whoever asks
 * ({@link RepoNamespace#requireBranch}). Who may use a repo's tables at all the policy decided
 * when the version was found ({@link AccessPolicy#mayUseRepos}).
 */
public record ResolvedRepoTable(RepoNamespace namespace, TableIdentifier identifier,
    RepoTable table) implements ResolvedTable {

  @Override
  public BucketConfig bucket() {
    return namespace.bucket();
  }

  @Override
  public StoragePath path() {
    return TableLocations.pathIn(namespace.bucket(), table.location());
  }

  /**
   * The table's pointer in this version. A declared table without one is a malformed store: it
   * cannot be loaded, and the message says why (the convention forbids falling back to another
   * snapshot's pointer).
   */
  @Override
  public String metadataLocation() {
    String location = table.metadataLocation().orElseThrow(() -> new NoSuchTableException(
        "Table %s is declared by group %s, but snapshot %s of repo %s has no pointer for it "
            + "(a malformed store: %s)", identifier, table.group(),
        namespace.version().snapshotId(), namespace.repo().name(),
        String.join("; ", namespace.version().problems())));
    TableLocations.requireWithin(namespace.bucket(), table.location(), "metadata file", location);
    return location;
  }

  @Override
  public MetadataPointers.Key pointer() {
    return new MetadataPointers.BranchTable(namespace.branch(), table.name(), table.location());
  }

  @Override
  public String pointerHome() {
    return "repo version " + namespace.namespace();
  }

  @Override
  public void requireAllowed(TableMetadata next) {
    RepoTableProperties.requireKept(next, identifier.toString());
  }

  @Override
  public void require(AccessPolicy policy, OrgContext context, Action action) {
    policy.requireRepoAccess(context);
    if (action != Action.READ) {
      namespace.requireCommittable();
    }
  }

  @Override
  public boolean allows(AccessPolicy policy, OrgContext context, Action action) {
    return policy.mayUseRepos(context) && (action == Action.READ || namespace.isWritable());
  }
}
