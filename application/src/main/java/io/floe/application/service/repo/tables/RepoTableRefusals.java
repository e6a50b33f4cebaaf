package io.floe.application.service.repo.tables;

import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.exceptions.ForbiddenException;

/**
 * What the tables of a repo refuse. A table's history is the repo's: every Icechunk tag and
 * snapshot that declares it keeps pointing at its files, so dropping, purging or renaming it
 * through the catalog would break those versions (icechest convention), and a table joins a repo
 * only by being created in it.
 */
public final class RepoTableRefusals {
  private RepoTableRefusals() {}

  /** {@code operation} (drop, purge, rename) of a table the repo declares. */
  public static ForbiddenException refused(String operation, TableIdentifier identifier,
      RepoNamespace namespace) {
    return new ForbiddenException("Cannot %s table %s: it belongs to repo %s, whose tags and "
        + "snapshots keep pointing at its files; tables of a repo are never dropped, purged or "
        + "renamed through the catalog", operation, identifier, namespace.repo().name());
  }

  /** {@code operation} (dropping it, changing its properties) of a repo version's namespace. */
  public static ForbiddenException refusedNamespace(String operation, RepoNamespace namespace) {
    return new ForbiddenException("Cannot %s %s: it is a version of repo %s; manage the repo "
        + "through /orgs/{org}/repos (or floe repos)", operation, namespace.namespace(),
        namespace.repo().name());
  }

  /** {@code operation} (registering a table, renaming one into it) in a repo version. */
  public static ForbiddenException refusedIn(String operation, RepoNamespace namespace) {
    return new ForbiddenException("Cannot %s in %s: it is a version of repo %s, whose tables are "
        + "created with CREATE TABLE and live in its history", operation, namespace.namespace(),
        namespace.repo().name());
  }
}
