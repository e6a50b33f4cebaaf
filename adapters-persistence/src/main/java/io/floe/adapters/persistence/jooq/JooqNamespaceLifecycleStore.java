package io.floe.adapters.persistence.jooq;

import static io.floe.adapters.persistence.jooq.schema.Tables.CATALOG_OBJECTS;
import static io.floe.adapters.persistence.jooq.schema.Tables.NAMESPACES;

import io.floe.application.port.out.NamespaceLifecycleStore;
import io.floe.domain.CatalogName;
import io.floe.domain.MetadataValue;
import io.floe.domain.Namespace;
import io.floe.domain.StorageLocation;
import io.floe.domain.StoragePath;
import io.floe.domain.Visibility;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import org.jooq.Condition;
import org.jooq.DSLContext;

/**
 * What is particular to namespaces' lifecycle in PostgreSQL: descriptions, restore, and the live
 * tables under a prefix. Soft delete and cleanup progress are {@link JooqSoftDeleteStore}'s.
 */
public final class JooqNamespaceLifecycleStore implements NamespaceLifecycleStore {
  private final DSLContext dsl;

  public JooqNamespaceLifecycleStore(Database database) {
    this.dsl = database.dsl();
  }

  @Override
  public Optional<Namespace> lockLive(UUID orgId, CatalogName name) {
    return dsl.selectFrom(NAMESPACES)
        .where(NAMESPACES.ORG_ID.eq(orgId), NAMESPACES.NAME_KEY.eq(name.key()),
            NAMESPACES.DELETED_AT.isNull())
        .forUpdate().fetchOptional().map(JooqNamespaceStore::toNamespace);
  }

  @Override
  public Namespace saveDescription(UUID namespaceId, Optional<String> description,
      Map<String, MetadataValue> metadata, Visibility visibility, Instant now) {
    return dsl.update(NAMESPACES)
        .set(NAMESPACES.DESCRIPTION, description.orElse(null))
        .set(NAMESPACES.METADATA, MetadataJson.of(metadata))
        .set(NAMESPACES.VISIBILITY, visibility.name())
        .set(NAMESPACES.UPDATED_AT, Times.of(now))
        .where(NAMESPACES.ID.eq(namespaceId))
        .returning().fetchOne(JooqNamespaceStore::toNamespace);
  }

  @Override
  public Optional<Namespace> lockRestorable(UUID orgId, CatalogName name, Instant now) {
    return dsl.selectFrom(NAMESPACES)
        .where(NAMESPACES.ORG_ID.eq(orgId), NAMESPACES.NAME_KEY.eq(name.key()),
            restorableAt(now))
        .forUpdate().fetchOptional().map(JooqNamespaceStore::toNamespace);
  }

  /** Deleted, name still held, recovery period running: the ghosts a listing may show. */
  static Condition restorableAt(Instant now) {
    return NAMESPACES.DELETED_AT.isNotNull().and(NAMESPACES.NAME_RELEASED_AT.isNull())
        .and(NAMESPACES.PURGE_AFTER.gt(Times.of(now)));
  }

  @Override
  public Namespace restore(UUID namespaceId, Instant now) {
    return dsl.update(NAMESPACES)
        .setNull(NAMESPACES.DELETED_AT)
        .setNull(NAMESPACES.PURGE_AFTER)
        .set(NAMESPACES.RETAIN_DATA, false)
        .set(NAMESPACES.UPDATED_AT, Times.of(now))
        .where(NAMESPACES.ID.eq(namespaceId))
        .returning().fetchOne(JooqNamespaceStore::toNamespace);
  }

  @Override
  public List<StorageLocation> objectsWithin(StorageLocation location) {
    return dsl.select(CATALOG_OBJECTS.BUCKET_ID, CATALOG_OBJECTS.LOCATION).from(CATALOG_OBJECTS)
        .where(CATALOG_OBJECTS.BUCKET_ID.eq(location.bucketId()))
        .and(PathConditions.within(CATALOG_OBJECTS.LOCATION, location.path()))
        .fetch(row -> new StorageLocation(row.value1(), new StoragePath(row.value2())));
  }

}
