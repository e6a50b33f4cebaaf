package io.floe.adapters.persistence.jooq;

import static io.floe.adapters.persistence.jooq.schema.Tables.CATALOG_OBJECTS;
import static io.floe.adapters.persistence.jooq.schema.Tables.NAMESPACES;

import io.floe.adapters.persistence.jooq.schema.tables.records.NamespacesRecord;
import io.floe.application.model.ListingScope;
import io.floe.application.port.out.NamespaceStore;
import io.floe.domain.CatalogName;
import io.floe.domain.Namespace;
import io.floe.domain.StoragePath;
import io.floe.domain.Visibility;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import org.jooq.DSLContext;
import org.jooq.JSONB;
import org.jooq.impl.DSL;
import org.jooq.impl.SQLDataType;

/** Namespaces in PostgreSQL. Live namespaces are those without {@code deleted_at}. */
public final class JooqNamespaceStore implements NamespaceStore {
  private final DSLContext dsl;

  public JooqNamespaceStore(Database database) {
    this.dsl = database.dsl();
  }

  @Override
  public void insert(Namespace namespace) {
    dsl.insertInto(NAMESPACES)
        .set(NAMESPACES.ID, namespace.id())
        .set(NAMESPACES.ORG_ID, namespace.orgId())
        .set(NAMESPACES.NAME, namespace.name().value())
        .set(NAMESPACES.NAME_KEY, namespace.name().key())
        .set(NAMESPACES.BUCKET_ID, namespace.bucketId())
        .set(NAMESPACES.PREFIX, namespace.prefix().value())
        .set(NAMESPACES.PROPERTIES, Json.of(namespace.properties()))
        .set(NAMESPACES.DESCRIPTION, namespace.description().orElse(null))
        .set(NAMESPACES.METADATA, MetadataJson.of(namespace.metadata()))
        .set(NAMESPACES.VISIBILITY, namespace.visibility().name())
        .set(NAMESPACES.CREATED_AT, Times.of(namespace.createdAt()))
        .set(NAMESPACES.UPDATED_AT, Times.of(namespace.updatedAt()))
        .execute();
  }

  @Override
  public Optional<Namespace> findLive(UUID orgId, CatalogName name) {
    return dsl.selectFrom(NAMESPACES)
        .where(NAMESPACES.ORG_ID.eq(orgId), NAMESPACES.NAME_KEY.eq(name.key()),
            NAMESPACES.DELETED_AT.isNull())
        .fetchOptional().map(JooqNamespaceStore::toNamespace);
  }

  @Override
  public List<Namespace> listLive(UUID orgId, Optional<String> afterName, int limit) {
    return dsl.selectFrom(NAMESPACES)
        .where(NAMESPACES.ORG_ID.eq(orgId), NAMESPACES.DELETED_AT.isNull())
        .and(afterName.map(NAMESPACES.NAME::gt).orElse(DSL.noCondition()))
        .orderBy(NAMESPACES.NAME)
        .limit(limit)
        .fetch(JooqNamespaceStore::toNamespace);
  }

  @Override
  public List<Namespace> listLive(UUID orgId, ListingScope scope, Optional<String> afterName,
      int limit) {
    return dsl.selectFrom(NAMESPACES)
        .where(NAMESPACES.ORG_ID.eq(orgId), NAMESPACES.DELETED_AT.isNull(),
            AccessConditions.namespaceInScope(scope))
        .and(afterName.map(NAMESPACES.NAME::gt).orElse(DSL.noCondition()))
        .orderBy(NAMESPACES.NAME)
        .limit(limit)
        .fetch(JooqNamespaceStore::toNamespace);
  }

  @Override
  public Namespace updateProperties(UUID namespaceId, Set<String> removals,
      Map<String, String> updates, Instant now) {
    // One statement: (properties - removals) || updates, so concurrent updates of different keys
    // never overwrite each other.
    return dsl.update(NAMESPACES)
        .set(NAMESPACES.PROPERTIES, DSL.field("({0} - {1}) || {2}", JSONB.class,
            NAMESPACES.PROPERTIES,
            DSL.val(removals.toArray(String[]::new), SQLDataType.VARCHAR.array()),
            DSL.val(Json.of(updates))))
        .set(NAMESPACES.UPDATED_AT, Times.of(now))
        .where(NAMESPACES.ID.eq(namespaceId))
        .returning()
        .fetchOne(JooqNamespaceStore::toNamespace);
  }

  @Override
  public boolean hasObjects(UUID namespaceId) {
    return dsl.fetchExists(CATALOG_OBJECTS, CATALOG_OBJECTS.NAMESPACE_ID.eq(namespaceId));
  }


  static Namespace toNamespace(NamespacesRecord row) {
    return new Namespace(row.getId(), row.getOrgId(), new CatalogName(row.getName()),
        row.getBucketId(), new StoragePath(row.getPrefix()), Json.stringMap(row.getProperties()),
        Optional.ofNullable(row.getDescription()), MetadataJson.parse(row.getMetadata()),
        Visibility.valueOf(row.getVisibility()), Times.instant(row.getCreatedAt()),
        Times.instant(row.getUpdatedAt()), Times.optional(row.getDeletedAt()));
  }
}
