package io.floe.adapters.persistence.cache;

import io.floe.application.model.TableScope;
import io.floe.application.port.out.CatalogObjectStore;
import io.floe.application.port.out.OrgStore;
import io.floe.domain.CatalogName;
import io.floe.domain.CatalogObject;
import io.floe.domain.Namespace;
import io.floe.domain.StoragePath;
import io.floe.domain.TableName;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicReference;

/**
 * The catalog object store, locating tables and views with their namespace and bucket taken from
 * the caches: then locating one costs a single lookup of the object by its namespace's id and its
 * name, what every loadTable and commit pays, and not even that while the object's pointer is
 * kept in memory ({@link PointerCache}, on any number of servers: a commit, drop or rename on any
 * server is seen by the very next request on every other). When the namespace is not cached, one
 * query reads all three and fills the namespace's cache.
 */
public final class CachingCatalogObjectStore implements CatalogObjectStore {
  private final CatalogObjectStore store;
  private final CachingNamespaceStore namespaces;
  private final OrgStore buckets;
  private final PointerCache pointers;

  /**
   * {@code namespaces} and {@code buckets} hold the caches of namespaces and buckets;
   * {@code pointers} must be told of every write to {@code store} (it is when {@code store} was
   * made with it).
   */
  public CachingCatalogObjectStore(CatalogObjectStore store, CachingNamespaceStore namespaces,
      OrgStore buckets, PointerCache pointers) {
    this.store = store;
    this.namespaces = namespaces;
    this.buckets = buckets;
    this.pointers = pointers;
  }

  @Override
  public Optional<Located> locate(UUID orgId, CatalogName namespace, TableName name) {
    AtomicReference<Located> readWhole = new AtomicReference<>();
    Optional<Namespace> live = namespaces.findLive(orgId, namespace, () -> {
      Optional<Located> located = store.locate(orgId, namespace, name);
      located.ifPresent(readWhole::set);
      return located.map(Located::namespace);
    });
    if (live.isEmpty()) {
      return Optional.empty();
    }
    if (readWhole.get() != null) {
      return Optional.of(readWhole.get());
    }
    Optional<CatalogObject> object = find(live.get().id(), name);
    return Optional.of(new Located(live.get(), object,
        object.flatMap(found -> buckets.bucket(found.location().bucketId()))));
  }

  @Override
  public Optional<CatalogObject> find(UUID orgId, CatalogName namespace, TableName name) {
    return store.find(orgId, namespace, name);
  }

  @Override
  public Optional<CatalogObject> find(UUID namespaceId, TableName name) {
    return pointers.find(namespaceId, name, () -> store.find(namespaceId, name));
  }

  @Override
  public boolean locationInUse(UUID bucketId, StoragePath path) {
    return store.locationInUse(bucketId, path);
  }

  @Override
  public List<CatalogObject> list(UUID namespaceId, CatalogObject.Kind kind,
      Optional<String> afterName, int limit) {
    return store.list(namespaceId, kind, afterName, limit);
  }

  @Override
  public List<CatalogObject> list(UUID namespaceId, CatalogObject.Kind kind, TableScope scope,
      Optional<String> afterName, int limit) {
    return store.list(namespaceId, kind, scope, afterName, limit);
  }

  @Override
  public boolean insert(CatalogObject object) {
    return store.insert(object);
  }

  @Override
  public void rename(UUID objectId, UUID newNamespaceId, TableName newName, Instant now) {
    store.rename(objectId, newNamespaceId, newName, now);
  }

  @Override
  public boolean delete(UUID objectId) {
    return store.delete(objectId);
  }
}
