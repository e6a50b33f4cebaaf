package io.floe.adapters.persistence.jooq;

import static io.floe.adapters.persistence.jooq.schema.Tables.ORG_NAMES;

import io.floe.application.port.out.NameRegistry;
import io.floe.domain.CatalogName;
import io.floe.domain.PrefixClaim.OwnerKind;
import java.util.Optional;
import java.util.UUID;
import org.jooq.DSLContext;

/** The org-wide name registry: the primary key on (org, lowercase name) makes names unique. */
public final class JooqNameRegistry implements NameRegistry {
  private final DSLContext dsl;

  public JooqNameRegistry(Database database) {
    this.dsl = database.dsl();
  }

  @Override
  public Optional<Holder> reserve(UUID orgId, CatalogName name, OwnerKind kind, UUID ownerId) {
    int inserted = dsl.insertInto(ORG_NAMES)
        .set(ORG_NAMES.ORG_ID, orgId).set(ORG_NAMES.NAME_KEY, name.key())
        .set(ORG_NAMES.OWNER_KIND, kind.name()).set(ORG_NAMES.OWNER_ID, ownerId)
        .onConflictDoNothing().execute();
    if (inserted == 1) {
      return Optional.empty();
    }
    return dsl.selectFrom(ORG_NAMES)
        .where(ORG_NAMES.ORG_ID.eq(orgId), ORG_NAMES.NAME_KEY.eq(name.key()))
        .fetchOptional()
        .map(row -> new Holder(OwnerKind.valueOf(row.getOwnerKind()), row.getOwnerId()))
        .or(() -> reserve(orgId, name, kind, ownerId));
  }

  @Override
  public void release(UUID orgId, CatalogName name) {
    dsl.deleteFrom(ORG_NAMES)
        .where(ORG_NAMES.ORG_ID.eq(orgId), ORG_NAMES.NAME_KEY.eq(name.key())).execute();
  }

  @Override
  public void releaseIfHeldBy(UUID orgId, CatalogName name, UUID ownerId) {
    dsl.deleteFrom(ORG_NAMES)
        .where(ORG_NAMES.ORG_ID.eq(orgId), ORG_NAMES.NAME_KEY.eq(name.key()),
            ORG_NAMES.OWNER_ID.eq(ownerId))
        .execute();
  }
}
