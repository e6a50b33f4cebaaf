package io.floe.adapters.persistence;

import static io.floe.adapters.persistence.jooq.Tables.REPOS;

import io.floe.application.port.out.RepoLifecycleStore;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import org.jooq.DSLContext;
import org.jooq.impl.DSL;

/** Repo lifecycle columns in PostgreSQL: soft delete and cleanup progress. */
public final class JooqRepoLifecycleStore implements RepoLifecycleStore {
  private final DSLContext dsl;

  public JooqRepoLifecycleStore(Database database) {
    this.dsl = database.dsl();
  }

  @Override
  public void markDeleted(UUID repoId, Instant now, Instant purgeAfter, boolean retainData,
      boolean nameReleased) {
    dsl.update(REPOS)
        .set(REPOS.DELETED_AT, Times.of(now))
        .set(REPOS.PURGE_AFTER, Times.of(purgeAfter))
        .set(REPOS.RETAIN_DATA, retainData)
        .set(REPOS.NAME_RELEASED_AT, nameReleased ? Times.of(now) : null)
        .where(REPOS.ID.eq(repoId), REPOS.DELETED_AT.isNull())
        .execute();
  }

  @Override
  public List<UUID> dueForCleanup(Optional<UUID> orgId, Instant now, int limit) {
    return dsl.select(REPOS.ID).from(REPOS)
        .where(REPOS.DELETED_AT.isNotNull(), REPOS.PURGE_AFTER.le(Times.of(now)))
        .and(orgId.map(REPOS.ORG_ID::eq).orElse(DSL.noCondition()))
        .orderBy(REPOS.PURGE_AFTER)
        .limit(limit)
        .fetch(REPOS.ID);
  }

  @Override
  public Optional<Deleted> lockForCleanup(UUID repoId) {
    // SKIP LOCKED: two passes running at once each take different repos.
    return dsl.selectFrom(REPOS)
        .where(REPOS.ID.eq(repoId), REPOS.DELETED_AT.isNotNull())
        .forUpdate().skipLocked()
        .fetchOptional()
        .map(row -> new Deleted(JooqRepoStore.toRepo(row), row.getRetainData(),
            row.getNameReleasedAt() != null, row.getCleanupAttempts()));
  }

  @Override
  public void markNameReleased(UUID repoId, Instant now) {
    dsl.update(REPOS).set(REPOS.NAME_RELEASED_AT, Times.of(now))
        .where(REPOS.ID.eq(repoId)).execute();
  }

  @Override
  public void recordCleanupAttempt(UUID repoId, Instant now) {
    dsl.update(REPOS)
        .set(REPOS.CLEANUP_ATTEMPTS, REPOS.CLEANUP_ATTEMPTS.plus(1))
        .set(REPOS.CLEANUP_UPDATED_AT, Times.of(now))
        .where(REPOS.ID.eq(repoId)).execute();
  }

  @Override
  public void recordCleanupProgress(UUID repoId, long objectsDeleted, Optional<String> error,
      Instant now) {
    dsl.update(REPOS)
        .set(REPOS.CLEANUP_OBJECTS_DELETED, REPOS.CLEANUP_OBJECTS_DELETED.plus(objectsDeleted))
        .set(REPOS.CLEANUP_LAST_ERROR, error.orElse(null))
        .set(REPOS.CLEANUP_UPDATED_AT, Times.of(now))
        .where(REPOS.ID.eq(repoId)).execute();
  }

  @Override
  public void purge(UUID repoId) {
    dsl.deleteFrom(REPOS).where(REPOS.ID.eq(repoId)).execute();
  }
}
