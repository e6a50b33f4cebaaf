package io.floe.adapters.persistence.cache;

import io.floe.application.port.out.GrantStore;
import io.floe.domain.Grant;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;

/**
 * The grant store with the grants a principal holds within a namespace cached, as every request
 * of a member who is not an admin asks for them. They depend on grants, teams, memberships and on
 * where tables are (a table grant follows its table), so a change to any of those forgets them.
 */
public final class CachingGrantStore implements GrantStore {
  private record Key(UUID principalId, UUID namespaceId) {}

  private final GrantStore store;
  private final InvalidatedCache<Key, List<Grant>> held;

  public CachingGrantStore(GrantStore store, CacheInvalidations invalidations) {
    this.store = store;
    this.held = invalidations.newCache("grants", 10_000, Set.of("grants", "team_members",
        "memberships", "principals", "namespaces", "catalog_objects"));
  }

  @Override
  public List<Grant> heldWithin(UUID principalId, UUID namespaceId) {
    return held.get(new Key(principalId, namespaceId),
        key -> List.copyOf(store.heldWithin(key.principalId(), key.namespaceId())));
  }

  @Override
  public Named save(Entry entry) {
    return store.save(entry);
  }

  @Override
  public List<Named> list(UUID orgId, Optional<UUID> namespaceId, Optional<UUID> principalId) {
    return store.list(orgId, namespaceId, principalId);
  }

  @Override
  public Optional<Named> find(UUID orgId, UUID grantId) {
    return store.find(orgId, grantId);
  }

  @Override
  public boolean delete(UUID grantId) {
    return store.delete(grantId);
  }
}
