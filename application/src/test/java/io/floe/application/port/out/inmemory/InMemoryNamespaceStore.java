package io.floe.application.port.out.inmemory;

import io.floe.application.model.ListingScope;
import io.floe.application.port.out.NamespaceStore;
import io.floe.application.port.out.inmemory.InMemoryDatabase.LifecycleRow;
import io.floe.domain.CatalogName;
import io.floe.domain.Namespace;
import java.time.Instant;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;

/** Namespaces in memory: at most one live namespace per name (case-insensitive) in an org. */
public final class InMemoryNamespaceStore implements NamespaceStore {
  private final InMemoryDatabase db;
  private final InMemoryAccess access;

  public InMemoryNamespaceStore(InMemoryDatabase db) {
    this.db = db;
    this.access = new InMemoryAccess(db);
  }

  @Override
  public void insert(Namespace namespace) {
    db.statement(() -> {
      if (db.namespaces.containsKey(namespace.id())) {
        throw InMemoryDatabase.uniqueViolation("namespaces_pkey");
      }
      if (findLive(db, namespace.orgId(), namespace.name()).isPresent()) {
        throw InMemoryDatabase.uniqueViolation("namespaces_live_name");
      }
      db.namespaces.put(namespace.id(), LifecycleRow.live(namespace));
    });
  }

  @Override
  public Optional<Namespace> findLive(UUID orgId, CatalogName name) {
    return db.statement(() -> findLive(db, orgId, name));
  }

  static Optional<Namespace> findLive(InMemoryDatabase db, UUID orgId, CatalogName name) {
    return db.namespaces.values().stream().map(LifecycleRow::owner)
        .filter(namespace -> namespace.orgId().equals(orgId) && !namespace.isDeleted()
            && namespace.name().key().equals(name.key()))
        .findFirst();
  }

  @Override
  public List<Namespace> listLive(UUID orgId, Optional<String> afterName, int limit) {
    return listLive(orgId, ListingScope.all(), afterName, limit);
  }

  @Override
  public List<Namespace> listLive(UUID orgId, ListingScope scope, Optional<String> afterName,
      int limit) {
    return db.statement(() -> db.namespaces.values().stream().map(LifecycleRow::owner)
        .filter(namespace -> namespace.orgId().equals(orgId) && !namespace.isDeleted())
        .filter(namespace -> access.inScope(namespace, scope))
        .filter(namespace -> afterName
            .map(after -> namespace.name().value().compareTo(after) > 0).orElse(true))
        .sorted(Comparator.comparing(namespace -> namespace.name().value()))
        .limit(limit)
        .toList());
  }

  @Override
  public Namespace updateProperties(UUID namespaceId, Set<String> removals,
      Map<String, String> updates, Instant now) {
    return db.statement(() -> {
      LifecycleRow<Namespace> row = db.namespaces.get(namespaceId).orElseThrow();
      Namespace current = row.owner();
      Map<String, String> properties = new HashMap<>(current.properties());
      properties.keySet().removeAll(removals);
      properties.putAll(updates);
      Namespace updated = new Namespace(current.id(), current.orgId(), current.name(),
          current.bucketId(), current.prefix(), properties, current.description(),
          current.metadata(), current.visibility(), current.createdAt(), now,
          current.deletedAt());
      db.namespaces.put(namespaceId, row.withOwner(updated));
      return updated;
    });
  }

  @Override
  public boolean hasObjects(UUID namespaceId) {
    return db.statement(() -> db.objects.values().stream()
        .anyMatch(object -> object.namespaceId().equals(namespaceId)));
  }
}
