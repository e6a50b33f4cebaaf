package io.floe.adapters.persistence.jooq;

import static io.floe.adapters.persistence.jooq.schema.Tables.PENDING_CREATIONS;

import io.floe.adapters.persistence.jooq.schema.tables.records.PendingCreationsRecord;
import io.floe.application.port.out.PendingCreationStore;
import io.floe.domain.CatalogName;
import io.floe.domain.PrefixClaim;
import io.floe.domain.StoragePath;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import org.jooq.DSLContext;

/** The journal of unfinished creations in PostgreSQL. */
public final class JooqPendingCreationStore implements PendingCreationStore {
  private final DSLContext dsl;

  public JooqPendingCreationStore(Database database) {
    this.dsl = database.dsl();
  }

  @Override
  public void record(Pending pending) {
    dsl.insertInto(PENDING_CREATIONS)
        .set(PENDING_CREATIONS.OWNER_ID, pending.ownerId())
        .set(PENDING_CREATIONS.ORG_ID, pending.orgId())
        .set(PENDING_CREATIONS.OWNER_KIND, pending.kind().name())
        // The key is all a repair needs: the registry holds names by key.
        .set(PENDING_CREATIONS.NAME_KEY, pending.name().key())
        .set(PENDING_CREATIONS.BUCKET_ID, pending.bucketId())
        .set(PENDING_CREATIONS.PREFIX, pending.prefix().value())
        .set(PENDING_CREATIONS.STARTED_AT, Times.of(pending.startedAt()))
        .execute();
  }

  @Override
  public boolean finish(UUID ownerId) {
    return dsl.deleteFrom(PENDING_CREATIONS).where(PENDING_CREATIONS.OWNER_ID.eq(ownerId))
        .execute() == 1;
  }

  @Override
  public Optional<Pending> lock(UUID ownerId) {
    return dsl.selectFrom(PENDING_CREATIONS).where(PENDING_CREATIONS.OWNER_ID.eq(ownerId))
        .forUpdate().fetchOptional().map(JooqPendingCreationStore::toPending);
  }

  @Override
  public List<Pending> lockStartedBefore(Instant cutoff, int limit) {
    // SKIP LOCKED: a creation that is finishing right now holds its row; leave it alone.
    return dsl.selectFrom(PENDING_CREATIONS)
        .where(PENDING_CREATIONS.STARTED_AT.lt(Times.of(cutoff)))
        .orderBy(PENDING_CREATIONS.STARTED_AT)
        .limit(limit)
        .forUpdate().skipLocked()
        .fetch(JooqPendingCreationStore::toPending);
  }

  private static Pending toPending(PendingCreationsRecord row) {
    return new Pending(row.getOwnerId(), row.getOrgId(),
        PrefixClaim.OwnerKind.valueOf(row.getOwnerKind()), new CatalogName(row.getNameKey()),
        row.getBucketId(), new StoragePath(row.getPrefix()), Times.instant(row.getStartedAt()));
  }
}
