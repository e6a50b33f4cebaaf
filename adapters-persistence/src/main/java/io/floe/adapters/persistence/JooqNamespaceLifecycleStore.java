package io.floe.adapters.persistence;

import static io.floe.adapters.persistence.jooq.Tables.CATALOG_OBJECTS;
import static io.floe.adapters.persistence.jooq.Tables.NAMESPACES;

import io.floe.adapters.persistence.jooq.tables.records.NamespacesRecord;
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
import org.jooq.impl.DSL;

/** Namespace lifecycle columns in PostgreSQL: soft delete, restore, cleanup progress. */
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
  public void markDeleted(UUID namespaceId, Instant now, Instant purgeAfter, boolean retainData,
      boolean nameReleased) {
    dsl.update(NAMESPACES)
        .set(NAMESPACES.DELETED_AT, Times.of(now))
        .set(NAMESPACES.PURGE_AFTER, Times.of(purgeAfter))
        .set(NAMESPACES.RETAIN_DATA, retainData)
        .set(NAMESPACES.NAME_RELEASED_AT, nameReleased ? Times.of(now) : null)
        .set(NAMESPACES.UPDATED_AT, Times.of(now))
        .where(NAMESPACES.ID.eq(namespaceId), NAMESPACES.DELETED_AT.isNull())
        .execute();
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
  public List<UUID> dueForCleanup(Optional<UUID> orgId, Instant now, int limit) {
    return dsl.select(NAMESPACES.ID).from(NAMESPACES)
        .where(NAMESPACES.DELETED_AT.isNotNull(), NAMESPACES.PURGE_AFTER.le(Times.of(now)))
        .and(orgId.map(NAMESPACES.ORG_ID::eq).orElse(DSL.noCondition()))
        .orderBy(NAMESPACES.PURGE_AFTER)
        .limit(limit)
        .fetch(NAMESPACES.ID);
  }

  @Override
  public Optional<Deleted> lockForCleanup(UUID namespaceId) {
    // SKIP LOCKED: two passes running at once each take different namespaces.
    return dsl.selectFrom(NAMESPACES)
        .where(NAMESPACES.ID.eq(namespaceId), NAMESPACES.DELETED_AT.isNotNull())
        .forUpdate().skipLocked()
        .fetchOptional().map(JooqNamespaceLifecycleStore::toDeleted);
  }

  @Override
  public void markNameReleased(UUID namespaceId, Instant now) {
    dsl.update(NAMESPACES).set(NAMESPACES.NAME_RELEASED_AT, Times.of(now))
        .where(NAMESPACES.ID.eq(namespaceId)).execute();
  }

  @Override
  public void recordCleanupAttempt(UUID namespaceId, Instant now) {
    dsl.update(NAMESPACES)
        .set(NAMESPACES.CLEANUP_ATTEMPTS, NAMESPACES.CLEANUP_ATTEMPTS.plus(1))
        .set(NAMESPACES.CLEANUP_UPDATED_AT, Times.of(now))
        .where(NAMESPACES.ID.eq(namespaceId)).execute();
  }

  @Override
  public void recordCleanupProgress(UUID namespaceId, long objectsDeleted, Optional<String> error,
      Instant now) {
    dsl.update(NAMESPACES)
        .set(NAMESPACES.CLEANUP_OBJECTS_DELETED,
            NAMESPACES.CLEANUP_OBJECTS_DELETED.plus(objectsDeleted))
        .set(NAMESPACES.CLEANUP_LAST_ERROR, error.orElse(null))
        .set(NAMESPACES.CLEANUP_UPDATED_AT, Times.of(now))
        .where(NAMESPACES.ID.eq(namespaceId)).execute();
  }

  @Override
  public List<StorageLocation> objectsWithin(StorageLocation location) {
    String prefix = location.path().value();
    return dsl.select(CATALOG_OBJECTS.BUCKET_ID, CATALOG_OBJECTS.LOCATION).from(CATALOG_OBJECTS)
        .where(CATALOG_OBJECTS.BUCKET_ID.eq(location.bucketId()))
        .and(CATALOG_OBJECTS.LOCATION.eq(prefix)
            .or(DSL.condition("starts_with({0}, {1})", CATALOG_OBJECTS.LOCATION,
                DSL.val(prefix + "/"))))
        .fetch(row -> new StorageLocation(row.value1(), new StoragePath(row.value2())));
  }

  @Override
  public void purge(UUID namespaceId) {
    dsl.deleteFrom(NAMESPACES).where(NAMESPACES.ID.eq(namespaceId)).execute();
  }

  private static Deleted toDeleted(NamespacesRecord row) {
    return new Deleted(JooqNamespaceStore.toNamespace(row), Times.instant(row.getPurgeAfter()),
        row.getRetainData(), row.getNameReleasedAt() != null, row.getCleanupAttempts());
  }
}
