package io.floe.application.port.out.inmemory;

import io.floe.application.port.out.GrantStore;
import io.floe.application.port.out.inmemory.InMemoryDatabase.GrantRow;
import io.floe.domain.CatalogObject;
import io.floe.domain.Grant;
import java.time.Instant;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import java.util.stream.Stream;

/**
 * Grants in memory. A table grant is reported in its table's current namespace and disappears
 * with its table (see {@link InMemoryCatalogObjectStore#delete}).
 */
public final class InMemoryGrantStore implements GrantStore {
  private final InMemoryDatabase db;
  private final InMemoryAccess access;

  public InMemoryGrantStore(InMemoryDatabase db) {
    this.db = db;
    this.access = new InMemoryAccess(db);
  }

  @Override
  public List<Grant> heldWithin(UUID principalId, UUID namespaceId) {
    return db.statement(() -> named()
        .filter(named -> access.heldBy(row(named), principalId)
            && named.entry().grant().namespaceId().equals(namespaceId))
        .map(named -> named.entry().grant()).toList());
  }

  @Override
  public Named save(Entry entry) {
    return db.statement(() -> {
      Grant grant = entry.grant();
      GrantRow row = sameTarget(grant)
          .map(existing -> new GrantRow(existing.id(), existing.orgId(), existing.principalId(),
              existing.namespaceId(), existing.tableId(), grant.action(), existing.createdAt()))
          .orElseGet(() -> new GrantRow(entry.id(), entry.orgId(), grant.principalId(),
              grant.namespaceId(), grant.tableId(), grant.action(), entry.createdAt()));
      db.grants.put(row.id(), row);
      return named(row).orElseThrow();
    });
  }

  @Override
  public List<Named> list(UUID orgId, Optional<UUID> namespaceId, Optional<UUID> principalId) {
    return db.statement(() -> named()
        .filter(named -> named.entry().orgId().equals(orgId))
        .filter(named -> namespaceId.map(id -> row(named).namespaceId().equals(id)
            || named.entry().grant().namespaceId().equals(id)).orElse(true))
        .filter(named -> principalId.map(named.entry().grant().principalId()::equals)
            .orElse(true))
        .sorted(Comparator.<Named, Instant>comparing(named -> named.entry().createdAt())
            .thenComparing(named -> named.entry().id()))
        .toList());
  }

  @Override
  public Optional<Named> find(UUID orgId, UUID grantId) {
    return db.statement(() -> db.grants.get(grantId)
        .filter(row -> row.orgId().equals(orgId)).flatMap(this::named));
  }

  @Override
  public boolean delete(UUID grantId) {
    return db.statement(() -> db.grants.remove(grantId));
  }

  private Optional<GrantRow> sameTarget(Grant grant) {
    return db.grants.values().stream()
        .filter(row -> row.principalId().equals(grant.principalId())
            && row.namespaceId().equals(grant.namespaceId())
            && row.tableId().equals(grant.tableId()))
        .findFirst();
  }

  private GrantRow row(Named named) {
    return db.grants.get(named.entry().id()).orElseThrow();
  }

  private Stream<Named> named() {
    return db.grants.values().stream().flatMap(row -> named(row).stream());
  }

  /** The grant with its principal's, namespace's and table's names; as the SQL join does. */
  private Optional<Named> named(GrantRow row) {
    Optional<CatalogObject> table = row.tableId().flatMap(db.objects::get);
    UUID namespaceId = table.map(CatalogObject::namespaceId).orElse(row.namespaceId());
    return db.principals.get(row.principalId()).flatMap(principal ->
        db.namespaces.get(namespaceId).map(namespace -> new Named(
            new Entry(row.id(), row.orgId(), new Grant(row.principalId(), namespaceId,
                row.tableId(), row.action()), row.createdAt()),
            principal.principal().name(), namespace.owner().name().value(),
            table.map(object -> object.name().value()))));
  }
}
