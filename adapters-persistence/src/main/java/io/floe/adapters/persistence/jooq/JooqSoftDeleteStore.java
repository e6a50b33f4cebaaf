package io.floe.adapters.persistence.jooq;

import static io.floe.adapters.persistence.jooq.schema.Tables.NAMESPACES;
import static io.floe.adapters.persistence.jooq.schema.Tables.REPOS;

import io.floe.application.port.out.SoftDeleteStore;
import io.floe.domain.Namespace;
import io.floe.domain.Repo;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import java.util.function.Function;
import org.jooq.DSLContext;
import org.jooq.Field;
import org.jooq.Table;
import org.jooq.TableRecord;
import org.jooq.UpdateSetMoreStep;
import org.jooq.impl.DSL;

/**
 * The soft-delete lifecycle columns, which the namespaces and repos tables share by name
 * ({@code deleted_at}, {@code purge_after}, {@code retain_data}, {@code name_released_at} and the
 * {@code cleanup_*} progress): one store for both, over the table it is given.
 *
 * @param <T> the owner a row is read as
 * @param <R> the table's record
 */
public final class JooqSoftDeleteStore<T, R extends TableRecord<R>> implements SoftDeleteStore<T> {
  private final DSLContext dsl;
  private final Table<R> table;
  private final Function<R, T> toOwner;
  private final Field<UUID> id;
  private final Field<UUID> orgId;
  private final Field<OffsetDateTime> deletedAt;
  private final Field<OffsetDateTime> purgeAfter;
  private final Field<Boolean> retainData;
  private final Field<OffsetDateTime> nameReleasedAt;
  private final Field<Integer> cleanupAttempts;
  private final Field<Long> cleanupObjectsDeleted;
  private final Field<String> cleanupLastError;
  private final Field<OffsetDateTime> cleanupUpdatedAt;
  /** Set on a delete where the table tracks when its rows change. */
  private final Optional<Field<OffsetDateTime>> updatedAt;

  private JooqSoftDeleteStore(Database database, Table<R> table, Function<R, T> toOwner) {
    this.dsl = database.dsl();
    this.table = table;
    this.toOwner = toOwner;
    this.id = column("id", UUID.class);
    this.orgId = column("org_id", UUID.class);
    this.deletedAt = column("deleted_at", OffsetDateTime.class);
    this.purgeAfter = column("purge_after", OffsetDateTime.class);
    this.retainData = column("retain_data", Boolean.class);
    this.nameReleasedAt = column("name_released_at", OffsetDateTime.class);
    this.cleanupAttempts = column("cleanup_attempts", Integer.class);
    this.cleanupObjectsDeleted = column("cleanup_objects_deleted", Long.class);
    this.cleanupLastError = column("cleanup_last_error", String.class);
    this.cleanupUpdatedAt = column("cleanup_updated_at", OffsetDateTime.class);
    this.updatedAt = Optional.ofNullable(table.field("updated_at", OffsetDateTime.class));
  }

  public static JooqSoftDeleteStore<Namespace, ?> namespaces(Database database) {
    return new JooqSoftDeleteStore<>(database, NAMESPACES, JooqNamespaceStore::toNamespace);
  }

  public static JooqSoftDeleteStore<Repo, ?> repos(Database database) {
    return new JooqSoftDeleteStore<>(database, REPOS, JooqRepoStore::toRepo);
  }

  @Override
  public void markDeleted(UUID ownerId, Instant now, Instant purgeAt, boolean retain,
      boolean nameReleased) {
    UpdateSetMoreStep<R> update = dsl.update(table)
        .set(deletedAt, Times.of(now))
        .set(purgeAfter, Times.of(purgeAt))
        .set(retainData, retain)
        .set(nameReleasedAt, nameReleased ? Times.of(now) : null);
    if (updatedAt.isPresent()) {
      update = update.set(updatedAt.get(), Times.of(now));
    }
    update.where(id.eq(ownerId), deletedAt.isNull()).execute();
  }

  @Override
  public List<UUID> dueForCleanup(Optional<UUID> org, Instant now, int limit) {
    return dsl.select(id).from(table)
        .where(deletedAt.isNotNull(), purgeAfter.le(Times.of(now)))
        .and(org.map(orgId::eq).orElse(DSL.noCondition()))
        .orderBy(purgeAfter)
        .limit(limit)
        .fetch(id);
  }

  @Override
  public Optional<Deleted<T>> lockForCleanup(UUID ownerId) {
    // SKIP LOCKED: two passes running at once each take different owners.
    return dsl.selectFrom(table)
        .where(id.eq(ownerId), deletedAt.isNotNull())
        .forUpdate().skipLocked()
        .fetchOptional()
        .map(row -> new Deleted<>(toOwner.apply(row), Times.instant(row.get(purgeAfter)),
            row.get(retainData), row.get(nameReleasedAt) != null, row.get(cleanupAttempts)));
  }

  @Override
  public void markNameReleased(UUID ownerId, Instant now) {
    dsl.update(table).set(nameReleasedAt, Times.of(now)).where(id.eq(ownerId)).execute();
  }

  @Override
  public void recordCleanupAttempt(UUID ownerId, Instant now) {
    dsl.update(table)
        .set(cleanupAttempts, cleanupAttempts.plus(1))
        .set(cleanupUpdatedAt, Times.of(now))
        .where(id.eq(ownerId)).execute();
  }

  @Override
  public void recordCleanupProgress(UUID ownerId, long objectsDeleted, Optional<String> error,
      Instant now) {
    dsl.update(table)
        .set(cleanupObjectsDeleted, cleanupObjectsDeleted.plus(objectsDeleted))
        .set(cleanupLastError, error.orElse(null))
        .set(cleanupUpdatedAt, Times.of(now))
        .where(id.eq(ownerId)).execute();
  }

  @Override
  public void purge(UUID ownerId) {
    dsl.deleteFrom(table).where(id.eq(ownerId)).execute();
  }

  private <V> Field<V> column(String name, Class<V> type) {
    Field<V> field = table.field(name, type);
    if (field == null) {
      throw new IllegalStateException(table.getName() + " has no lifecycle column " + name);
    }
    return field;
  }
}
