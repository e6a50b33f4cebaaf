package io.floe.adapters.persistence.jooq;

import static io.floe.adapters.persistence.jooq.schema.Tables.BUCKET_CONFIGS;
import static io.floe.adapters.persistence.jooq.schema.Tables.CATALOG_OBJECTS;
import static io.floe.adapters.persistence.jooq.schema.Tables.NAMESPACES;

import io.floe.application.model.ListingScope;
import io.floe.application.model.ListingSort;
import io.floe.application.model.NamespaceQuery;
import io.floe.application.model.Page;
import io.floe.application.model.SortDirection;
import io.floe.application.model.TableQuery;
import io.floe.application.model.TableScope;
import io.floe.application.port.out.NamespaceDirectory;
import io.floe.domain.CatalogName;
import io.floe.domain.CatalogObject;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.UUID;
import org.jooq.Condition;
import org.jooq.DSLContext;
import org.jooq.Field;
import org.jooq.Record;
import org.jooq.SortField;
import org.jooq.impl.DSL;

/**
 * Namespace and table listings in SQL: search, metadata filter (jsonb containment), sort and
 * page all happen in PostgreSQL; table counts and summaries come from catalog rows only, and
 * count only the tables the caller may see.
 */
public final class JooqNamespaceDirectory implements NamespaceDirectory {
  private static final Field<String> DESCRIPTION = DSL.coalesce(NAMESPACES.DESCRIPTION,
      DSL.field("{0} ->> 'comment'", String.class, NAMESPACES.PROPERTIES));

  private final DSLContext dsl;

  public JooqNamespaceDirectory(Database database) {
    this.dsl = database.dsl();
  }

  @Override
  public Optional<Listed> findLive(UUID orgId, CatalogName name, ListingScope scope) {
    return select(scope, NAMESPACES.ORG_ID.eq(orgId).and(NAMESPACES.NAME_KEY.eq(name.key()))
        .and(NAMESPACES.DELETED_AT.isNull()))
        .fetchOptional().map(JooqNamespaceDirectory::toListed);
  }

  @Override
  public List<Listed> list(UUID orgId, ListingScope scope, Optional<Instant> ghostsAt) {
    return select(scope,
        NAMESPACES.ORG_ID.eq(orgId).and(inScope(scope)).and(liveOrGhost(ghostsAt)))
        .orderBy(NAMESPACES.NAME_KEY, NAMESPACES.ID)
        .fetch(JooqNamespaceDirectory::toListed);
  }

  @Override
  public Page<Listed> search(UUID orgId, ListingScope scope, NamespaceQuery query, Instant now) {
    Condition where = NAMESPACES.ORG_ID.eq(orgId).and(inScope(scope))
        .and(liveOrGhost(query.includeGhosts() ? Optional.of(now) : Optional.empty()))
        .and(query.search().map(JooqNamespaceDirectory::matches).orElse(DSL.noCondition()))
        .and(query.metadataFilter().isEmpty() ? DSL.noCondition()
            : DSL.condition("{0} @> {1}", NAMESPACES.METADATA,
                DSL.val(MetadataJson.of(query.metadataFilter()))));
    long total = dsl.fetchCount(NAMESPACES, where);
    List<SortField<?>> order = new ArrayList<>();
    order.add(sorted(namespaceSortKey(query.sort(), query.search(), scope),
        query.direction()));
    order.add(NAMESPACES.NAME_KEY.asc());
    order.add(NAMESPACES.ID.asc());
    List<Listed> items = select(scope, where)
        .orderBy(order)
        .limit(query.page().size()).offset(query.page().offset())
        .fetch(JooqNamespaceDirectory::toListed);
    return new Page<>(items, total, query.page().page(), query.page().size());
  }

  @Override
  public Page<CatalogObject> tables(UUID namespaceId, TableScope scope, TableQuery query) {
    Condition where = CATALOG_OBJECTS.NAMESPACE_ID.eq(namespaceId)
        .and(AccessConditions.objectInScope(scope))
        .and(CATALOG_OBJECTS.KIND.eq(CatalogObject.Kind.TABLE.name()))
        .and(query.search().map(CATALOG_OBJECTS.NAME::containsIgnoreCase)
            .orElse(DSL.noCondition()));
    long total = dsl.fetchCount(CATALOG_OBJECTS, where);
    Field<?> key = switch (query.sort()) {
      case RELEVANCE -> relevance(DSL.lower(CATALOG_OBJECTS.NAME), query.search().orElseThrow());
      case CREATED -> CATALOG_OBJECTS.CREATED_AT;
      case NAME -> CATALOG_OBJECTS.NAME;
      default -> CATALOG_OBJECTS.UPDATED_AT;
    };
    List<CatalogObject> items = dsl.selectFrom(CATALOG_OBJECTS).where(where)
        .orderBy(sorted(key, query.direction()), CATALOG_OBJECTS.NAME.asc(),
            CATALOG_OBJECTS.ID.asc())
        .limit(query.page().size()).offset(query.page().offset())
        .fetch(JooqCatalogObjectStore::toObject);
    return new Page<>(items, total, query.page().page(), query.page().size());
  }

  private org.jooq.SelectConditionStep<Record> select(ListingScope scope, Condition where) {
    return dsl.select(NAMESPACES.fields())
        .select(BUCKET_CONFIGS.NICKNAME, tableCount(scope).as("table_count"))
        .from(NAMESPACES)
        .join(BUCKET_CONFIGS).on(BUCKET_CONFIGS.ID.eq(NAMESPACES.BUCKET_ID))
        .where(where);
  }

  /** The namespace's tables that {@code scope} lets the caller see, counted in SQL. */
  private static Field<Integer> tableCount(ListingScope scope) {
    return DSL.field(DSL.selectCount().from(CATALOG_OBJECTS)
        .where(CATALOG_OBJECTS.NAMESPACE_ID.eq(NAMESPACES.ID),
            CATALOG_OBJECTS.KIND.eq(CatalogObject.Kind.TABLE.name()),
            AccessConditions.objectInNamespaceInScope(scope)));
  }

  private static Condition inScope(ListingScope scope) {
    return AccessConditions.namespaceInScope(scope);
  }

  private static Condition liveOrGhost(Optional<Instant> ghostsAt) {
    return ghostsAt.map(now -> NAMESPACES.DELETED_AT.isNull()
            .or(JooqNamespaceLifecycleStore.restorableAt(now)))
        .orElse(NAMESPACES.DELETED_AT.isNull());
  }

  /** A search matches the name or the description people see (their own, or the comment). */
  private static Condition matches(String text) {
    return NAMESPACES.NAME_KEY.containsIgnoreCase(text).or(DESCRIPTION.containsIgnoreCase(text));
  }

  private static Field<?> namespaceSortKey(ListingSort sort, Optional<String> search,
      ListingScope scope) {
    return switch (sort) {
      case RELEVANCE -> relevance(NAMESPACES.NAME_KEY, search.orElseThrow());
      case CREATED -> NAMESPACES.CREATED_AT;
      case NAME -> NAMESPACES.NAME_KEY;
      case TABLES -> tableCount(scope);
      case UPDATED -> NAMESPACES.UPDATED_AT;
    };
  }

  /** Exact name, then name prefix, then name substring, then a match in the description only. */
  private static Field<Integer> relevance(Field<String> lowercaseName, String search) {
    String text = search.toLowerCase(Locale.ROOT);
    return DSL.when(lowercaseName.eq(text), 3)
        .when(lowercaseName.startsWith(text), 2)
        .when(lowercaseName.contains(text), 1)
        .otherwise(0);
  }

  private static SortField<?> sorted(Field<?> key, SortDirection direction) {
    return direction == SortDirection.ASC ? key.asc() : key.desc();
  }

  private static Listed toListed(Record row) {
    return new Listed(JooqNamespaceStore.toNamespace(row.into(NAMESPACES)),
        row.get(BUCKET_CONFIGS.NICKNAME), row.get("table_count", Integer.class));
  }
}
