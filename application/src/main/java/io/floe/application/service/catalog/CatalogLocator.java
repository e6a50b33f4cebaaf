package io.floe.application.service.catalog;

import io.floe.application.iceberg.FlatIdentifiers;
import io.floe.application.port.out.CatalogObjectStore;
import io.floe.application.port.out.NamespaceStore;
import io.floe.application.port.out.OrgStore;
import io.floe.application.port.out.RepoVersions.RepoTable;
import io.floe.application.security.AccessPolicy;
import io.floe.application.security.OrgContext;
import io.floe.application.service.repo.tables.RepoNamespace;
import io.floe.application.service.repo.tables.RepoNamespaces;
import io.floe.application.service.repo.tables.RepoTableRefusals;
import io.floe.domain.BucketConfig;
import io.floe.domain.CatalogName;
import io.floe.domain.CatalogObject;
import io.floe.domain.Namespace;
import io.floe.domain.TableName;
import java.util.Optional;
import java.util.UUID;
import java.util.function.Function;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.exceptions.BadRequestException;
import org.apache.iceberg.exceptions.NoSuchNamespaceException;
import org.apache.iceberg.exceptions.NoSuchTableException;
import org.apache.iceberg.exceptions.NoSuchViewException;

/**
 * Finds namespaces, tables and views the caller may see: the plain namespaces of the catalog, and
 * the versions of the org's repos engines address as namespaces ({@link RepoNamespaces}). A name
 * with an '@' is only ever a repo version; any other name is looked up among plain namespaces
 * first, exactly as it would be without repos, and reaches a repo only when no plain namespace
 * has it (a repo never shares a plain namespace's name). What the caller may not see does not
 * exist for it: the same "does not exist" error either way.
 */
public final class CatalogLocator {
  private final OrgStore orgs;
  private final NamespaceStore namespaces;
  private final CatalogObjectStore objects;
  private final AccessPolicy policy;
  private final RepoNamespaces repos;

  public CatalogLocator(OrgStore orgs, NamespaceStore namespaces, CatalogObjectStore objects,
      AccessPolicy policy, RepoNamespaces repos) {
    this.orgs = orgs;
    this.namespaces = namespaces;
    this.objects = objects;
    this.policy = policy;
    this.repos = repos;
  }

  /** A plain namespace the caller may see; a repo version is no such namespace. */
  public Namespace namespace(OrgContext context, org.apache.iceberg.catalog.Namespace namespace) {
    return plainNamespace(context, namespace)
        .orElseThrow(() -> new NoSuchNamespaceException("Namespace does not exist: %s", namespace));
  }

  /**
   * A plain namespace the caller may see, for something only plain namespaces hold (a registered
   * table, a renamed one): a repo version refuses with a 403 saying so
   * ({@link RepoTableRefusals#refusedIn}).
   */
  public Namespace catalogNamespace(OrgContext context,
      org.apache.iceberg.catalog.Namespace namespace, String operation) {
    return eitherNamespace(context, namespace, found -> found, repo -> {
      throw RepoTableRefusals.refusedIn(operation, repo);
    });
  }

  /** Resolves a namespace of either kind and hands it to the function for its kind. */
  public <T> T eitherNamespace(OrgContext context, org.apache.iceberg.catalog.Namespace namespace,
      Function<Namespace, T> plain, Function<RepoNamespace, T> repo) {
    if (RepoNamespaces.isVersioned(namespace)) {
      return repo.apply(repos.require(context, namespace));
    }
    Optional<Namespace> found = plainNamespace(context, namespace);
    if (found.isPresent()) {
      return plain.apply(found.get());
    }
    return repo.apply(repos.require(context, namespace));
  }

  private Optional<Namespace> plainNamespace(OrgContext context,
      org.apache.iceberg.catalog.Namespace namespace) {
    // A name no namespace can have names none: a lookup's 404, never a 400.
    return FlatIdentifiers.existingNamespaceName(namespace)
        .flatMap(name -> namespaces.findLive(context.org().id(), name))
        .filter(found -> policy.canSee(context, found));
  }

  /**
   * The table or view under that name, whichever it is, if the caller may see it. The namespace,
   * the object and its bucket are read together, in one query.
   *
   * @throws NoSuchNamespaceException when the namespace itself does not exist
   */
  public Optional<ResolvedObject> find(OrgContext context, TableIdentifier identifier) {
    if (identifier.namespace().length() == 1
        && FlatIdentifiers.existingNamespaceName(identifier.namespace()).isEmpty()) {
      throw new NoSuchNamespaceException("Namespace does not exist: %s", identifier.namespace());
    }
    CatalogName namespaceName = FlatIdentifiers.namespaceName(identifier.namespace());
    TableName name;
    try {
      name = FlatIdentifiers.tableName(identifier);
    } catch (BadRequestException e) {
      namespace(context, identifier.namespace()); // a missing namespace is reported first
      throw e;
    }
    CatalogObjectStore.Located located = objects.locate(context.org().id(), namespaceName, name)
        .filter(found -> policy.canSee(context, found.namespace()))
        .orElseThrow(() -> new NoSuchNamespaceException("Namespace does not exist: %s",
            identifier.namespace()));
    Namespace namespace = located.namespace();
    return located.object()
        // A table granted to someone else is as absent as a missing one.
        .filter(object -> policy.canSee(context, namespace, object))
        .map(object -> new ResolvedObject(namespace, object, located.bucket()
            .orElseThrow(() -> new IllegalStateException(
                "bucket configuration vanished: " + object.location().bucketId()))));
  }

  /** The table under that name, in a plain namespace or a repo version, if the caller sees it. */
  public ResolvedTable table(OrgContext context, TableIdentifier identifier) {
    if (identifier.namespace().length() > 1) {
      // No table lives in a nested namespace. Engines probe such names (Java's client resolves
      // metadata tables like ns.tbl.files this way) and expect "no such table".
      throw new NoSuchTableException("Table does not exist: %s (namespaces are flat)", identifier);
    }
    if (RepoNamespaces.isVersioned(identifier.namespace())) {
      return repoTable(repos.require(context, identifier.namespace()), identifier);
    }
    if (FlatIdentifiers.existingTableName(identifier.name()).isEmpty()) {
      throw new NoSuchTableException("Table does not exist: %s", identifier);
    }
    Optional<ResolvedObject> found;
    try {
      found = find(context, identifier);
    } catch (NoSuchNamespaceException notPlain) {
      return repos.find(context, identifier.namespace())
          .map(repo -> repoTable(repo, identifier))
          .orElseThrow(() -> new NoSuchTableException("Table does not exist: %s", identifier));
    }
    return found.filter(table -> table.object().kind() == CatalogObject.Kind.TABLE)
        .orElseThrow(() -> new NoSuchTableException("Table does not exist: %s", identifier));
  }

  /**
   * A plain namespace's table, for what only catalog entries allow (dropping, renaming): a repo's
   * table refuses with a 403 saying why ({@link RepoTableRefusals#refused}).
   */
  public ResolvedObject catalogTable(OrgContext context, TableIdentifier identifier,
      String operation) {
    ResolvedTable table = table(context, identifier);
    if (table instanceof ResolvedRepoTable repoTable) {
      throw RepoTableRefusals.refused(operation, identifier, repoTable.namespace());
    }
    return (ResolvedObject) table;
  }

  /** The table a repo version declares under the identifier's name, inside the repo. */
  private static ResolvedRepoTable repoTable(RepoNamespace namespace, TableIdentifier identifier) {
    RepoTable table = namespace.version().tables().get(identifier.name());
    if (table == null) {
      throw new NoSuchTableException("Table does not exist: %s", identifier);
    }
    TableLocations.requireWithin(namespace.bucket(), namespace.rootUri(), "location",
        table.location());
    return new ResolvedRepoTable(namespace, identifier, table);
  }

  public ResolvedObject view(OrgContext context, TableIdentifier identifier) {
    if (identifier.namespace().length() != 1
        || FlatIdentifiers.existingTableName(identifier.name()).isEmpty()) {
      throw new NoSuchViewException("View does not exist: %s", identifier);
    }
    return findQuietly(context, identifier)
        .filter(found -> found.object().kind() == CatalogObject.Kind.VIEW)
        .orElseThrow(() -> new NoSuchViewException("View does not exist: %s", identifier));
  }

  /** Like {@link #find}, but a missing namespace just means the object is missing too. */
  private Optional<ResolvedObject> findQuietly(OrgContext context, TableIdentifier identifier) {
    try {
      return find(context, identifier);
    } catch (NoSuchNamespaceException e) {
      return Optional.empty();
    }
  }

  public BucketConfig bucket(UUID bucketId) {
    return orgs.bucket(bucketId)
        .orElseThrow(() -> new IllegalStateException("bucket configuration vanished: " + bucketId));
  }
}
