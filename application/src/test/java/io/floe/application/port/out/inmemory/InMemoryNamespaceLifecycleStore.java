package io.floe.application.port.out.inmemory;

import io.floe.application.port.out.NamespaceLifecycleStore;
import io.floe.application.port.out.inmemory.InMemoryDatabase.LifecycleRow;
import io.floe.domain.CatalogName;
import io.floe.domain.CatalogObject;
import io.floe.domain.MetadataValue;
import io.floe.domain.Namespace;
import io.floe.domain.StorageLocation;
import io.floe.domain.Visibility;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.function.UnaryOperator;

/** What is particular to namespaces' lifecycle, in memory; the locks are the transaction's. */
public final class InMemoryNamespaceLifecycleStore implements NamespaceLifecycleStore {
  private final InMemoryDatabase db;

  public InMemoryNamespaceLifecycleStore(InMemoryDatabase db) {
    this.db = db;
  }

  @Override
  public Optional<Namespace> lockLive(UUID orgId, CatalogName name) {
    return db.statement(() -> InMemoryNamespaceStore.findLive(db, orgId, name));
  }

  @Override
  public Namespace saveDescription(UUID namespaceId, Optional<String> description,
      Map<String, MetadataValue> metadata, Visibility visibility, Instant now) {
    return update(namespaceId, row -> {
      Namespace ns = row.owner();
      return row.withOwner(new Namespace(ns.id(), ns.orgId(), ns.name(), ns.bucketId(),
          ns.prefix(), ns.properties(), description, metadata, visibility, ns.createdAt(), now,
          ns.deletedAt()));
    });
  }

  @Override
  public Optional<Namespace> lockRestorable(UUID orgId, CatalogName name, Instant now) {
    return db.statement(() -> db.namespaces.values().stream()
        .filter(row -> row.owner().orgId().equals(orgId)
            && row.owner().name().key().equals(name.key()) && isRestorable(row, now))
        .map(LifecycleRow::owner).findFirst());
  }

  /** Deleted, name still held, recovery period running: the ghosts a listing may show. */
  static boolean isRestorable(LifecycleRow<Namespace> row, Instant now) {
    return row.owner().isDeleted() && row.nameReleasedAt().isEmpty()
        && row.purgeAfter().filter(purgeAfter -> purgeAfter.isAfter(now)).isPresent();
  }

  @Override
  public Namespace restore(UUID namespaceId, Instant now) {
    return update(namespaceId, row -> {
      Namespace ns = row.owner();
      return new LifecycleRow<>(new Namespace(ns.id(), ns.orgId(), ns.name(), ns.bucketId(),
          ns.prefix(), ns.properties(), ns.description(), ns.metadata(), ns.visibility(),
          ns.createdAt(), now, Optional.empty()), Optional.empty(), false, row.nameReleasedAt(),
          row.cleanupAttempts(), row.cleanupObjectsDeleted(), row.cleanupLastError());
    });
  }

  @Override
  public List<StorageLocation> objectsWithin(StorageLocation location) {
    return db.statement(() -> db.objects.values().stream().map(CatalogObject::location)
        .filter(objectLocation -> objectLocation.isWithin(location))
        .toList());
  }

  private Namespace update(UUID namespaceId, UnaryOperator<LifecycleRow<Namespace>> change) {
    return db.statement(() -> {
      LifecycleRow<Namespace> changed = change.apply(db.namespaces.get(namespaceId).orElseThrow());
      db.namespaces.put(namespaceId, changed);
      return changed.owner();
    });
  }
}
