package io.floe.adapters.persistence.cache;

import io.floe.application.model.ListingScope;
import io.floe.application.port.out.NamespaceStore;
import io.floe.domain.CatalogName;
import io.floe.domain.Namespace;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import java.util.function.Supplier;

/**
 * The namespace store with live namespaces by name cached: creates, loads and listings of tables
 * resolve their namespace on every request. A namespace deleted, restored or changed is forgotten.
 */
public final class CachingNamespaceStore implements NamespaceStore {
  private record Key(UUID orgId, String nameKey) {}

  private final NamespaceStore store;
  private final InvalidatedCache<Key, Namespace> live;

  public CachingNamespaceStore(NamespaceStore store, CacheInvalidations invalidations) {
    this.store = store;
    this.live = invalidations.newCache("namespaces", 10_000, Set.of("namespaces"));
  }

  @Override
  public Optional<Namespace> findLive(UUID orgId, CatalogName name) {
    return findLive(orgId, name, () -> store.findLive(orgId, name));
  }

  /**
   * The live namespace from the cache, or read with {@code load} (which may read more than the
   * namespace, see {@link CachingCatalogObjectStore}) and cached.
   */
  Optional<Namespace> findLive(UUID orgId, CatalogName name,
      Supplier<Optional<Namespace>> load) {
    return live.find(new Key(orgId, name.key()), key -> load.get());
  }

  @Override
  public void insert(Namespace namespace) {
    store.insert(namespace);
  }

  @Override
  public List<Namespace> listLive(UUID orgId, Optional<String> afterName, int limit) {
    return store.listLive(orgId, afterName, limit);
  }

  @Override
  public List<Namespace> listLive(UUID orgId, ListingScope scope, Optional<String> afterName,
      int limit) {
    return store.listLive(orgId, scope, afterName, limit);
  }

  @Override
  public Namespace updateProperties(UUID namespaceId, Set<String> removals,
      Map<String, String> updates, Instant now) {
    return store.updateProperties(namespaceId, removals, updates, now);
  }

  @Override
  public boolean hasObjects(UUID namespaceId) {
    return store.hasObjects(namespaceId);
  }
}
