package io.floe.adapters.persistence.jooq;

import static io.floe.adapters.persistence.jooq.schema.Tables.PREFIX_CLAIMS;

import io.floe.application.port.out.PrefixClaimStore;
import io.floe.domain.PrefixClaim;
import io.floe.domain.StoragePath;
import java.util.List;
import java.util.UUID;
import org.jooq.DSLContext;

/** Prefix claims; overlap is decided in SQL, segment-wise ({@link PathConditions}). */
public final class JooqPrefixClaimStore implements PrefixClaimStore {
  private final DSLContext dsl;

  public JooqPrefixClaimStore(Database database) {
    this.dsl = database.dsl();
  }

  @Override
  public List<PrefixClaim> overlapping(UUID bucketId, StoragePath path) {
    return dsl.selectFrom(PREFIX_CLAIMS)
        .where(PREFIX_CLAIMS.BUCKET_ID.eq(bucketId))
        .and(PathConditions.overlaps(PREFIX_CLAIMS.PREFIX, path))
        .fetch(row -> new PrefixClaim(row.getBucketId(), new StoragePath(row.getPrefix()),
            new PrefixClaim.Owner(PrefixClaim.OwnerKind.valueOf(row.getOwnerKind()),
                row.getOwnerId())));
  }

  @Override
  public void insert(PrefixClaim claim) {
    dsl.insertInto(PREFIX_CLAIMS)
        .set(PREFIX_CLAIMS.BUCKET_ID, claim.bucketId())
        .set(PREFIX_CLAIMS.PREFIX, claim.path().value())
        .set(PREFIX_CLAIMS.OWNER_KIND, claim.owner().kind().name())
        .set(PREFIX_CLAIMS.OWNER_ID, claim.owner().id())
        .execute();
  }

  @Override
  public void releaseAllOf(UUID ownerId) {
    dsl.deleteFrom(PREFIX_CLAIMS).where(PREFIX_CLAIMS.OWNER_ID.eq(ownerId)).execute();
  }
}
