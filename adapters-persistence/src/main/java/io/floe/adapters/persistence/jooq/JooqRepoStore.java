package io.floe.adapters.persistence.jooq;

import static io.floe.adapters.persistence.jooq.schema.Tables.REPOS;

import io.floe.adapters.persistence.jooq.schema.tables.records.ReposRecord;
import io.floe.application.port.out.RepoStore;
import io.floe.domain.CatalogName;
import io.floe.domain.Repo;
import io.floe.domain.StorageLocation;
import io.floe.domain.StoragePath;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import org.jooq.Condition;
import org.jooq.DSLContext;

/** Repos in PostgreSQL. Live repos are those without {@code deleted_at}. */
public final class JooqRepoStore implements RepoStore {
  private final DSLContext dsl;

  public JooqRepoStore(Database database) {
    this.dsl = database.dsl();
  }

  @Override
  public void insert(Repo repo) {
    dsl.insertInto(REPOS)
        .set(REPOS.ID, repo.id())
        .set(REPOS.ORG_ID, repo.orgId())
        .set(REPOS.NAME, repo.name().value())
        .set(REPOS.NAME_KEY, repo.name().key())
        .set(REPOS.BUCKET_ID, repo.location().bucketId())
        .set(REPOS.PREFIX, repo.location().path().value())
        .set(REPOS.DESCRIPTION, repo.description().orElse(null))
        .set(REPOS.CREATED_AT, Times.of(repo.createdAt()))
        .execute();
  }

  @Override
  public Optional<Repo> findLive(UUID orgId, CatalogName name) {
    return dsl.selectFrom(REPOS)
        .where(REPOS.ORG_ID.eq(orgId), REPOS.NAME_KEY.eq(name.key()), REPOS.DELETED_AT.isNull())
        .fetchOptional(JooqRepoStore::toRepo);
  }

  @Override
  public List<Repo> listLive(UUID orgId) {
    return dsl.selectFrom(REPOS)
        .where(REPOS.ORG_ID.eq(orgId), REPOS.DELETED_AT.isNull())
        .orderBy(REPOS.NAME_KEY)
        .fetch(JooqRepoStore::toRepo);
  }

  @Override
  public List<DeletedRepo> listRestorable(UUID orgId, Instant now) {
    return dsl.selectFrom(REPOS)
        .where(REPOS.ORG_ID.eq(orgId), restorableAt(now))
        .orderBy(REPOS.NAME_KEY, REPOS.DELETED_AT.desc())
        .fetch(JooqRepoStore::toDeleted);
  }

  @Override
  public Optional<DeletedRepo> findRestorable(UUID orgId, CatalogName name, Instant now) {
    return dsl.selectFrom(REPOS)
        .where(REPOS.ORG_ID.eq(orgId), REPOS.NAME_KEY.eq(name.key()), restorableAt(now))
        .orderBy(REPOS.DELETED_AT.desc())
        .limit(1)
        .fetchOptional(JooqRepoStore::toDeleted);
  }

  @Override
  public void describe(UUID repoId, Optional<String> description) {
    dsl.update(REPOS)
        .set(REPOS.DESCRIPTION, description.orElse(null))
        .where(REPOS.ID.eq(repoId))
        .execute();
  }

  @Override
  public void markRestored(UUID repoId) {
    dsl.update(REPOS)
        .setNull(REPOS.DELETED_AT)
        .setNull(REPOS.PURGE_AFTER)
        .where(REPOS.ID.eq(repoId))
        .execute();
  }

  private static Condition restorableAt(Instant now) {
    return REPOS.DELETED_AT.isNotNull().and(REPOS.PURGE_AFTER.gt(Times.of(now)));
  }

  private static DeletedRepo toDeleted(ReposRecord row) {
    return new DeletedRepo(toRepo(row), Times.instant(row.getPurgeAfter()));
  }

  static Repo toRepo(ReposRecord row) {
    return new Repo(row.getId(), row.getOrgId(), new CatalogName(row.getName()),
        new StorageLocation(row.getBucketId(), new StoragePath(row.getPrefix())),
        Optional.ofNullable(row.getDescription()), Times.instant(row.getCreatedAt()),
        Times.optional(row.getDeletedAt()));
  }
}
