package io.floe.application.service.catalog;

import io.floe.application.port.out.MetadataPointers;
import io.floe.application.security.AccessPolicy;
import io.floe.application.security.OrgContext;
import io.floe.domain.Action;
import io.floe.domain.BucketConfig;
import io.floe.domain.StoragePath;
import org.apache.iceberg.TableMetadata;

/**
 * A table the caller may see, wherever its pointer lives: a plain namespace's table
 * ({@link ResolvedObject}) or a table a version of a repo declares ({@link ResolvedRepoTable}).
 * Reading, committing and reaching its files work the same for both.
 */
public sealed interface ResolvedTable permits ResolvedObject, ResolvedRepoTable {
  /** The bucket the table's files are on. */
  BucketConfig bucket();

  /** The table's own directory: everything it writes must stay under it. */
  StoragePath path();

  /** The metadata file the table points at now. */
  String metadataLocation();

  /** Where the table's pointer lives, for the committer to move it. */
  MetadataPointers.Key pointer();

  /**
   * Where the table's pointer lives, in words: the catalog, or a version of a repo. Pointers that
   * move in one commit live in one place.
   */
  String pointerHome();

  /**
   * Requires a new version of the table to keep the rules of where it lives: a repo's tables
   * keep Iceberg's cleanup switched off ({@code RepoTableProperties}).
   */
  void requireAllowed(TableMetadata next);

  /** Requires that the caller may take {@code action} on the table (a 403 otherwise). */
  void require(AccessPolicy policy, OrgContext context, Action action);

  /** Whether the caller may take {@code action} on the table. */
  boolean allows(AccessPolicy policy, OrgContext context, Action action);

  /** The URI of the table's own directory. */
  default String rootUri() {
    return bucket().uriOf(path());
  }
}
