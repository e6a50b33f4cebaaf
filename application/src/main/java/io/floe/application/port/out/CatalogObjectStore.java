package io.floe.application.port.out;

import io.floe.application.model.TableScope;
import io.floe.domain.BucketConfig;
import io.floe.domain.CatalogName;
import io.floe.domain.CatalogObject;
import io.floe.domain.Namespace;
import io.floe.domain.StoragePath;
import io.floe.domain.TableName;
import java.time.Instant;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.UUID;

/**
 * Tables and views: their entries in the catalog. Their pointers to metadata files move through
 * {@link MetadataPointers} only.
 */
public interface CatalogObjectStore {
  /** A live namespace and what {@link #locate} found in it. */
  record Located(Namespace namespace, Optional<CatalogObject> object,
      Optional<BucketConfig> bucket) {
    public Located {
      Objects.requireNonNull(namespace, "namespace");
      Objects.requireNonNull(object, "object");
      Objects.requireNonNull(bucket, "bucket");
    }
  }

  /**
   * Resolves a live namespace's table or view in one indexed query: the namespace's name is
   * compared case-insensitively, the object's name exactly.
   */
  Optional<CatalogObject> find(UUID orgId, CatalogName namespace, TableName name);

  /** A table or view of the namespace with that id, in one indexed lookup. */
  Optional<CatalogObject> find(UUID namespaceId, TableName name);

  /**
   * Resolves in one query a live namespace by name with, when it holds one of that name, its table
   * or view and the bucket configuration the object's files are on: what every request about a
   * table needs before it can decide anything. Empty when no such live namespace exists.
   */
  Optional<Located> locate(UUID orgId, CatalogName namespace, TableName name);

  /**
   * Whether a live table or view already lives at {@code path} on the bucket, or inside it, or
   * around it (segment-wise; the bucket's root is around every location): two catalog entries
   * must never share files.
   */
  boolean locationInUse(UUID bucketId, StoragePath path);

  /** One namespace's objects of a kind, ordered by name, strictly after {@code afterName}. */
  List<CatalogObject> list(UUID namespaceId, CatalogObject.Kind kind, Optional<String> afterName,
      int limit);

  /** Like {@link #list(UUID, CatalogObject.Kind, Optional, int)}, only the objects in scope. */
  List<CatalogObject> list(UUID namespaceId, CatalogObject.Kind kind, TableScope scope,
      Optional<String> afterName, int limit);

  /** Inserts the object; false when its namespace already holds a table or view of that name. */
  boolean insert(CatalogObject object);

  void rename(UUID objectId, UUID newNamespaceId, TableName newName, Instant now);

  /**
   * Removes the table or view and the grants on it; false when it was gone. A table's claim on a
   * prefix of its own stays, recording the namespace it was dropped from
   * ({@link DroppedTableClaimStore}).
   */
  boolean delete(UUID objectId);
}
