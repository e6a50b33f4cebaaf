package io.floe.adapters.persistence.jooq;

import static io.floe.adapters.persistence.jooq.schema.Tables.PREFIX_CLAIMS;

import io.floe.application.port.out.DroppedTableClaimStore;
import io.floe.domain.PrefixClaim;
import io.floe.domain.StoragePath;
import java.util.List;
import java.util.UUID;
import org.jooq.DSLContext;

/** Claims of dropped tables, found by the namespace recorded on them when the table was dropped. */
public final class JooqDroppedTableClaimStore implements DroppedTableClaimStore {
  private final DSLContext dsl;

  public JooqDroppedTableClaimStore(Database database) {
    this.dsl = database.dsl();
  }

  @Override
  public List<PrefixClaim> droppedFrom(UUID namespaceId) {
    return dsl.selectFrom(PREFIX_CLAIMS)
        .where(PREFIX_CLAIMS.DROPPED_FROM_NAMESPACE_ID.eq(namespaceId))
        .fetch(row -> new PrefixClaim(row.getBucketId(), new StoragePath(row.getPrefix()),
            new PrefixClaim.Owner(PrefixClaim.OwnerKind.valueOf(row.getOwnerKind()),
                row.getOwnerId())));
  }
}
