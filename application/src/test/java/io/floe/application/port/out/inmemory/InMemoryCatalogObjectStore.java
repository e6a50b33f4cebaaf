package io.floe.application.port.out.inmemory;

import io.floe.application.model.TableScope;
import io.floe.application.port.out.CatalogObjectStore;
import io.floe.application.port.out.MetadataPointers;
import io.floe.application.port.out.inmemory.InMemoryDatabase.ClaimKey;
import io.floe.application.port.out.inmemory.InMemoryDatabase.ClaimRow;
import io.floe.domain.CatalogName;
import io.floe.domain.CatalogObject;
import io.floe.domain.StoragePath;
import io.floe.domain.TableName;
import java.time.Instant;
import java.util.Collection;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.function.Predicate;

/**
 * Tables and views in memory. A pointer moves by compare-and-swap; {@link #lockForCommit} has
 * nothing to do, since a transaction holds the whole database.
 */
public final class InMemoryCatalogObjectStore implements CatalogObjectStore, MetadataPointers {
  private final InMemoryDatabase db;
  private final InMemoryAccess access;

  public InMemoryCatalogObjectStore(InMemoryDatabase db) {
    this.db = db;
    this.access = new InMemoryAccess(db);
  }

  @Override
  public Optional<CatalogObject> find(UUID orgId, CatalogName namespace, TableName name) {
    return db.statement(() -> InMemoryNamespaceStore.findLive(db, orgId, namespace)
        .flatMap(found -> inNamespace(found.id(), name)));
  }

  @Override
  public Optional<CatalogObject> find(UUID namespaceId, TableName name) {
    return db.statement(() -> inNamespace(namespaceId, name));
  }

  @Override
  public Optional<Located> locate(UUID orgId, CatalogName namespace, TableName name) {
    return db.statement(() -> InMemoryNamespaceStore.findLive(db, orgId, namespace)
        .map(found -> {
          Optional<CatalogObject> object = inNamespace(found.id(), name);
          return new Located(found, object,
              object.flatMap(it -> db.buckets.get(it.location().bucketId())));
        }));
  }

  @Override
  public boolean locationInUse(UUID bucketId, StoragePath path) {
    return db.statement(() -> db.objects.values().stream()
        .anyMatch(object -> object.location().bucketId().equals(bucketId)
            && object.location().path().overlaps(path)));
  }

  @Override
  public List<CatalogObject> list(UUID namespaceId, CatalogObject.Kind kind,
      Optional<String> afterName, int limit) {
    return list(namespaceId, kind, TableScope.all(), afterName, limit);
  }

  @Override
  public List<CatalogObject> list(UUID namespaceId, CatalogObject.Kind kind, TableScope scope,
      Optional<String> afterName, int limit) {
    return db.statement(() -> db.objects.values().stream()
        .filter(object -> object.namespaceId().equals(namespaceId) && object.kind() == kind)
        .filter(object -> access.inScope(object, scope))
        .filter(object -> afterName.map(after -> object.name().value().compareTo(after) > 0)
            .orElse(true))
        .sorted(Comparator.comparing(object -> object.name().value()))
        .limit(limit)
        .toList());
  }

  @Override
  public boolean insert(CatalogObject object) {
    return db.statement(() -> {
      if (holdsName(object.namespaceId(), object.name(), other -> true)) {
        return false;
      }
      if (db.objects.containsKey(object.id())) {
        throw InMemoryDatabase.uniqueViolation("catalog_objects_pkey");
      }
      db.objects.put(object.id(), object);
      return true;
    });
  }

  @Override
  public Optional<String> current(Key key) {
    UUID objectId = row(key);
    return db.statement(() -> db.objects.get(objectId).map(CatalogObject::metadataLocation));
  }

  @Override
  public boolean swap(List<Move> moves, Instant now) {
    return db.statement(() -> {
      for (Move move : moves) {
        Optional<CatalogObject> object = db.objects.get(row(move.key()));
        if (move.expected().isEmpty()) {
          throw new IllegalArgumentException("a catalog row comes into being with its entry");
        }
        if (object.isEmpty()
            || !object.get().metadataLocation().equals(move.expected().get())) {
          return false;
        }
      }
      for (Move move : moves) {
        CatalogObject object = db.objects.get(row(move.key())).orElseThrow();
        db.objects.put(object.id(), new CatalogObject(object.id(), object.namespaceId(),
            object.name(), object.kind(), move.next(), object.location(),
            object.hasStorageOverride(), object.createdAt(), now));
      }
      return true;
    });
  }

  @Override
  public void lockForCommit(Collection<Key> keys) {
    keys.forEach(InMemoryCatalogObjectStore::row);
    // A transaction holds the whole database already.
  }

  private static UUID row(Key key) {
    if (!(key instanceof Row row)) {
      throw new IllegalArgumentException("the catalog keeps rows' pointers, not " + key);
    }
    return row.objectId();
  }

  @Override
  public void rename(UUID objectId, UUID newNamespaceId, TableName newName, Instant now) {
    db.statement(() -> db.objects.get(objectId).ifPresent(object -> {
      if (holdsName(newNamespaceId, newName, other -> !other.id().equals(objectId))) {
        throw InMemoryDatabase.uniqueViolation("catalog_objects_namespace_id_name_key");
      }
      db.objects.put(objectId, new CatalogObject(object.id(), newNamespaceId, newName,
          object.kind(), object.metadataLocation(), object.location(),
          object.hasStorageOverride(), object.createdAt(), now));
    }));
  }

  @Override
  public boolean delete(UUID objectId) {
    return db.statement(() -> {
      Optional<CatalogObject> object = db.objects.get(objectId);
      if (object.isEmpty()) {
        return false;
      }
      // The claim of a table with a prefix of its own stays, recording the namespace it left.
      for (Map.Entry<ClaimKey, ClaimRow> claim : db.claims.rows().entrySet()) {
        if (claim.getValue().claim().owner().id().equals(objectId)) {
          claim.setValue(new ClaimRow(claim.getValue().claim(),
              Optional.of(object.get().namespaceId())));
        }
      }
      // Grants on the table go with it, as the foreign key's cascade does.
      db.grants.rows().values().removeIf(grant -> grant.tableId().equals(Optional.of(objectId)));
      return db.objects.remove(objectId);
    });
  }

  private Optional<CatalogObject> inNamespace(UUID namespaceId, TableName name) {
    return db.objects.values().stream()
        .filter(object -> object.namespaceId().equals(namespaceId) && object.name().equals(name))
        .findFirst();
  }

  private boolean holdsName(UUID namespaceId, TableName name, Predicate<CatalogObject> other) {
    return db.objects.values().stream().anyMatch(object ->
        object.namespaceId().equals(namespaceId) && object.name().equals(name)
            && other.test(object));
  }
}
