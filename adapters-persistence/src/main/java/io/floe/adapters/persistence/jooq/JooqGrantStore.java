package io.floe.adapters.persistence.jooq;

import static io.floe.adapters.persistence.jooq.schema.Tables.CATALOG_OBJECTS;
import static io.floe.adapters.persistence.jooq.schema.Tables.GRANTS;
import static io.floe.adapters.persistence.jooq.schema.Tables.NAMESPACES;
import static io.floe.adapters.persistence.jooq.schema.Tables.PRINCIPALS;

import io.floe.application.port.out.GrantStore;
import io.floe.domain.Action;
import io.floe.domain.Grant;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import org.jooq.Condition;
import org.jooq.DSLContext;
import org.jooq.Field;
import org.jooq.Record;
import org.jooq.impl.DSL;

/** Grants in PostgreSQL; a table grant's namespace is read from its table's current row. */
public final class JooqGrantStore implements GrantStore {
  /** The namespace a grant applies in: its table's, for a table grant. */
  private static final Field<UUID> CURRENT_NAMESPACE =
      DSL.coalesce(CATALOG_OBJECTS.NAMESPACE_ID, GRANTS.NAMESPACE_ID).as("current_namespace");

  private final DSLContext dsl;

  public JooqGrantStore(Database database) {
    this.dsl = database.dsl();
  }

  @Override
  public List<Grant> heldWithin(UUID principalId, UUID namespaceId) {
    Condition within = GRANTS.TABLE_ID.isNull().and(GRANTS.NAMESPACE_ID.eq(namespaceId))
        .or(CATALOG_OBJECTS.NAMESPACE_ID.eq(namespaceId));
    return select()
        .where(AccessConditions.heldBy(GRANTS.PRINCIPAL_ID, principalId), within)
        .fetch(row -> toEntry(row).grant());
  }

  @Override
  public Named save(Entry entry) {
    Grant grant = entry.grant();
    // The unique index is on an expression (a namespace grant has no table id), which ON
    // CONFLICT cannot name through jOOQ's column list; update first, insert when nothing was there.
    int updated = dsl.update(GRANTS).set(GRANTS.ACTION, grant.action().name())
        .where(GRANTS.PRINCIPAL_ID.eq(grant.principalId()),
            GRANTS.NAMESPACE_ID.eq(grant.namespaceId()), sameTable(grant.tableId()))
        .execute();
    if (updated == 0) {
      dsl.insertInto(GRANTS)
          .set(GRANTS.ID, entry.id())
          .set(GRANTS.ORG_ID, entry.orgId())
          .set(GRANTS.PRINCIPAL_ID, grant.principalId())
          .set(GRANTS.NAMESPACE_ID, grant.namespaceId())
          .set(GRANTS.TABLE_ID, grant.tableId().orElse(null))
          .set(GRANTS.ACTION, grant.action().name())
          .set(GRANTS.CREATED_AT, Times.of(entry.createdAt()))
          .execute();
    }
    return select().where(GRANTS.PRINCIPAL_ID.eq(grant.principalId()),
            GRANTS.NAMESPACE_ID.eq(grant.namespaceId()), sameTable(grant.tableId()))
        .fetchOne(JooqGrantStore::toNamed);
  }

  @Override
  public List<Named> list(UUID orgId, Optional<UUID> namespaceId, Optional<UUID> principalId) {
    return select()
        .where(GRANTS.ORG_ID.eq(orgId))
        .and(namespaceId.map(id -> GRANTS.NAMESPACE_ID.eq(id).or(CATALOG_OBJECTS.NAMESPACE_ID.eq(id)))
            .orElse(DSL.noCondition()))
        .and(principalId.map(GRANTS.PRINCIPAL_ID::eq).orElse(DSL.noCondition()))
        .orderBy(GRANTS.CREATED_AT, GRANTS.ID)
        .fetch(JooqGrantStore::toNamed);
  }

  @Override
  public Optional<Named> find(UUID orgId, UUID grantId) {
    return select().where(GRANTS.ORG_ID.eq(orgId), GRANTS.ID.eq(grantId))
        .fetchOptional(JooqGrantStore::toNamed);
  }

  @Override
  public boolean delete(UUID grantId) {
    return dsl.deleteFrom(GRANTS).where(GRANTS.ID.eq(grantId)).execute() == 1;
  }

  private org.jooq.SelectOnConditionStep<Record> select() {
    return dsl.select(GRANTS.fields())
        .select(CURRENT_NAMESPACE, PRINCIPALS.NAME, NAMESPACES.NAME, CATALOG_OBJECTS.NAME)
        .from(GRANTS)
        .join(PRINCIPALS).on(PRINCIPALS.ID.eq(GRANTS.PRINCIPAL_ID))
        .leftJoin(CATALOG_OBJECTS).on(CATALOG_OBJECTS.ID.eq(GRANTS.TABLE_ID))
        .join(NAMESPACES).on(NAMESPACES.ID.eq(
            DSL.coalesce(CATALOG_OBJECTS.NAMESPACE_ID, GRANTS.NAMESPACE_ID)));
  }

  private static Named toNamed(Record row) {
    return new Named(toEntry(row), row.get(PRINCIPALS.NAME), row.get(NAMESPACES.NAME),
        Optional.ofNullable(row.get(CATALOG_OBJECTS.NAME)));
  }

  private static Condition sameTable(Optional<UUID> tableId) {
    return tableId.map(GRANTS.TABLE_ID::eq).orElse(GRANTS.TABLE_ID.isNull());
  }

  private static Entry toEntry(Record row) {
    Grant grant = new Grant(row.get(GRANTS.PRINCIPAL_ID), row.get(CURRENT_NAMESPACE),
        Optional.ofNullable(row.get(GRANTS.TABLE_ID)), Action.valueOf(row.get(GRANTS.ACTION)));
    return new Entry(row.get(GRANTS.ID), row.get(GRANTS.ORG_ID), grant,
        Times.instant(row.get(GRANTS.CREATED_AT)));
  }
}
