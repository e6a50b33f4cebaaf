package io.floe.application.service.catalog;

import io.floe.application.iceberg.FlatIdentifiers;
import io.floe.application.port.out.CatalogObjectStore;
import io.floe.application.port.out.NamespaceStore;
import io.floe.application.port.out.OrgStore;
import io.floe.application.security.AccessPolicy;
import io.floe.application.security.OrgContext;
import io.floe.domain.BucketConfig;
import io.floe.domain.CatalogName;
import io.floe.domain.CatalogObject;
import io.floe.domain.Namespace;
import io.floe.domain.TableName;
import java.util.Optional;
import java.util.UUID;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.exceptions.BadRequestException;
import org.apache.iceberg.exceptions.NoSuchNamespaceException;
import org.apache.iceberg.exceptions.NoSuchTableException;
import org.apache.iceberg.exceptions.NoSuchViewException;

/**
 * Finds namespaces, tables and views the caller may see. What the caller may not see does not
 * exist for it: the same "does not exist" error either way.
 */
public final class CatalogLocator {
  private final OrgStore orgs;
  private final NamespaceStore namespaces;
  private final CatalogObjectStore objects;
  private final AccessPolicy policy;

  public CatalogLocator(OrgStore orgs, NamespaceStore namespaces, CatalogObjectStore objects,
      AccessPolicy policy) {
    this.orgs = orgs;
    this.namespaces = namespaces;
    this.objects = objects;
    this.policy = policy;
  }

  public Namespace namespace(OrgContext context, org.apache.iceberg.catalog.Namespace namespace) {
    CatalogName name = FlatIdentifiers.namespaceName(namespace);
    return namespaces.findLive(context.org().id(), name)
        .filter(found -> policy.canSee(context, found))
        .orElseThrow(() -> new NoSuchNamespaceException("Namespace does not exist: %s", namespace));
  }

  /**
   * The table or view under that name, whichever it is, if the caller may see it. The namespace,
   * the object and its bucket are read together, in one query.
   *
   * @throws NoSuchNamespaceException when the namespace itself does not exist
   */
  public Optional<ResolvedObject> find(OrgContext context, TableIdentifier identifier) {
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

  public ResolvedObject table(OrgContext context, TableIdentifier identifier) {
    if (identifier.namespace().length() > 1) {
      // No table lives in a nested namespace. Engines probe such names (Java's client resolves
      // metadata tables like ns.tbl.files this way) and expect "no such table".
      throw new NoSuchTableException("Table does not exist: %s (namespaces are flat)", identifier);
    }
    return findQuietly(context, identifier)
        .filter(found -> found.object().kind() == CatalogObject.Kind.TABLE)
        .orElseThrow(() -> new NoSuchTableException("Table does not exist: %s", identifier));
  }

  public ResolvedObject view(OrgContext context, TableIdentifier identifier) {
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
