package io.floe.adapters.persistence.jooq;

import static io.floe.adapters.persistence.jooq.schema.Tables.NAMESPACES;
import static io.floe.adapters.persistence.jooq.schema.Tables.ORG_NAMES;
import static io.floe.adapters.persistence.jooq.schema.Tables.REPOS;

import io.floe.application.port.out.NameRegistry;
import io.floe.domain.CatalogName;
import io.floe.domain.PrefixClaim.OwnerKind;
import java.time.OffsetDateTime;
import java.util.Optional;
import java.util.UUID;
import org.jooq.DSLContext;
import org.jooq.Field;
import org.jooq.impl.DSL;

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
    // A soft-deleted holder still holds its name: say until when it can be restored.
    Field<OffsetDateTime> restorableUntil = DSL.coalesce(
        DSL.field(DSL.select(NAMESPACES.PURGE_AFTER).from(NAMESPACES)
            .where(NAMESPACES.ID.eq(ORG_NAMES.OWNER_ID), NAMESPACES.DELETED_AT.isNotNull())),
        DSL.field(DSL.select(REPOS.PURGE_AFTER).from(REPOS)
            .where(REPOS.ID.eq(ORG_NAMES.OWNER_ID), REPOS.DELETED_AT.isNotNull())));
    return dsl.select(ORG_NAMES.OWNER_KIND, ORG_NAMES.OWNER_ID, restorableUntil).from(ORG_NAMES)
        .where(ORG_NAMES.ORG_ID.eq(orgId), ORG_NAMES.NAME_KEY.eq(name.key()))
        .fetchOptional()
        .map(row -> new Holder(OwnerKind.valueOf(row.value1()), row.value2(),
            Optional.ofNullable(row.value3()).map(Times::instant)))
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
