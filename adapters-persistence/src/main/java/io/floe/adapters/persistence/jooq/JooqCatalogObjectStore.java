package io.floe.adapters.persistence.jooq;

import static io.floe.adapters.persistence.jooq.schema.Tables.BUCKET_CONFIGS;
import static io.floe.adapters.persistence.jooq.schema.Tables.CATALOG_OBJECTS;
import static io.floe.adapters.persistence.jooq.schema.Tables.NAMESPACES;
import static io.floe.adapters.persistence.jooq.schema.Tables.PREFIX_CLAIMS;

import io.floe.adapters.persistence.jooq.schema.tables.records.CatalogObjectsRecord;
import io.floe.application.model.TableScope;
import io.floe.application.port.out.CatalogObjectStore;
import io.floe.application.port.out.MetadataPointers;
import io.floe.domain.CatalogName;
import io.floe.domain.CatalogObject;
import io.floe.domain.StorageLocation;
import io.floe.domain.StoragePath;
import io.floe.domain.TableName;
import java.time.Instant;
import java.util.Collection;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import java.util.function.Supplier;
import org.jooq.DSLContext;
import org.jooq.SQLDialect;
import org.jooq.impl.DSL;

/**
 * Tables and views in PostgreSQL; their pointers (a plain namespace's: {@link Row} keys) move
 * only by compare-and-swap.
 */
public final class JooqCatalogObjectStore implements CatalogObjectStore, MetadataPointers {
  private static final String FIND_IN_NAMESPACE = DSL.using(SQLDialect.POSTGRES).render(
      DSL.selectFrom(CATALOG_OBJECTS).where(
          CATALOG_OBJECTS.NAMESPACE_ID.eq(DSL.param("namespace", UUID.class)),
          CATALOG_OBJECTS.NAME.eq(DSL.param("name", String.class))));

  private final Database database;
  private final SharedReads<ObjectKey, Optional<CatalogObject>> sharedFinds = new SharedReads<>();
  private final DSLContext dsl;
  /** Opens the credentials of the bucket {@link #locate} reads along with a table. */
  private final SealedCredentials credentials;
  private final CatalogObjectWrites writes;

  private record ObjectKey(UUID namespaceId, String name) {}

  public JooqCatalogObjectStore(Database database, SecretCipher cipher) {
    this(database, cipher, CatalogObjectWrites.NONE);
  }

  /** A store whose every write {@code writes} hears of first, inside the write's transaction. */
  public JooqCatalogObjectStore(Database database, SecretCipher cipher,
      CatalogObjectWrites writes) {
    this.database = database;
    this.dsl = database.dsl();
    this.credentials = new SealedCredentials(cipher);
    this.writes = writes;
  }

  @Override
  public Optional<CatalogObject> find(UUID orgId, CatalogName namespace, TableName name) {
    // One query over two unique indexes: the live namespace by name, then the object by name.
    return dsl.select(CATALOG_OBJECTS.fields())
        .from(CATALOG_OBJECTS)
        .join(NAMESPACES).on(NAMESPACES.ID.eq(CATALOG_OBJECTS.NAMESPACE_ID))
        .where(NAMESPACES.ORG_ID.eq(orgId), NAMESPACES.NAME_KEY.eq(namespace.key()),
            NAMESPACES.DELETED_AT.isNull(), CATALOG_OBJECTS.NAME.eq(name.value()))
        .fetchOptional()
        .map(record -> toObject(record.into(CATALOG_OBJECTS)));
  }

  @Override
  public Optional<CatalogObject> find(UUID namespaceId, TableName name) {
    if (database.transactionOpen()) {
      // Inside a transaction the read must be the transaction's own.
      return findNow(namespaceId, name);
    }
    // The query nearly every load and commit sends: concurrent requests for one object share it.
    return sharedFinds.read(new ObjectKey(namespaceId, name.value()),
        () -> findNow(namespaceId, name));
  }

  private Optional<CatalogObject> findNow(UUID namespaceId, TableName name) {
    // Rendered once, so that a request pays for the round trip only (rendering it anew cost more
    // CPU than PostgreSQL spends answering it).
    return dsl.resultQuery(FIND_IN_NAMESPACE, namespaceId, name.value())
        .coerce(CATALOG_OBJECTS)
        .fetchOptional(JooqCatalogObjectStore::toObject);
  }

  @Override
  public Optional<Located> locate(UUID orgId, CatalogName namespace, TableName name) {
    // The namespace by its unique live name, the object by its unique name in it, the bucket by
    // its key: three index lookups in one round trip.
    return dsl.select(NAMESPACES.fields())
        .select(CATALOG_OBJECTS.fields())
        .select(BUCKET_CONFIGS.fields())
        .from(NAMESPACES)
        .leftJoin(CATALOG_OBJECTS).on(CATALOG_OBJECTS.NAMESPACE_ID.eq(NAMESPACES.ID),
            CATALOG_OBJECTS.NAME.eq(name.value()))
        .leftJoin(BUCKET_CONFIGS).on(BUCKET_CONFIGS.ID.eq(CATALOG_OBJECTS.BUCKET_ID))
        .where(NAMESPACES.ORG_ID.eq(orgId), NAMESPACES.NAME_KEY.eq(namespace.key()),
            NAMESPACES.DELETED_AT.isNull())
        .fetchOptional()
        .map(row -> {
          boolean found = row.get(CATALOG_OBJECTS.ID) != null;
          return new Located(JooqNamespaceStore.toNamespace(row.into(NAMESPACES)),
              found ? Optional.of(toObject(row.into(CATALOG_OBJECTS))) : Optional.empty(),
              found && row.get(BUCKET_CONFIGS.ID) != null
                  ? Optional.of(JooqOrgStore.toBucket(row.into(BUCKET_CONFIGS), credentials))
                  : Optional.empty());
        });
  }

  @Override
  public List<CatalogObject> list(UUID namespaceId, CatalogObject.Kind kind,
      Optional<String> afterName, int limit) {
    return dsl.selectFrom(CATALOG_OBJECTS)
        .where(CATALOG_OBJECTS.NAMESPACE_ID.eq(namespaceId), CATALOG_OBJECTS.KIND.eq(kind.name()))
        .and(afterName.map(CATALOG_OBJECTS.NAME::gt).orElse(DSL.noCondition()))
        .orderBy(CATALOG_OBJECTS.NAME)
        .limit(limit)
        .fetch(JooqCatalogObjectStore::toObject);
  }

  @Override
  public List<CatalogObject> list(UUID namespaceId, CatalogObject.Kind kind, TableScope scope,
      Optional<String> afterName, int limit) {
    return dsl.selectFrom(CATALOG_OBJECTS)
        .where(CATALOG_OBJECTS.NAMESPACE_ID.eq(namespaceId), CATALOG_OBJECTS.KIND.eq(kind.name()),
            AccessConditions.objectInScope(scope))
        .and(afterName.map(CATALOG_OBJECTS.NAME::gt).orElse(DSL.noCondition()))
        .orderBy(CATALOG_OBJECTS.NAME)
        .limit(limit)
        .fetch(JooqCatalogObjectStore::toObject);
  }

  @Override
  public boolean insert(CatalogObject object) {
    // A new row: nobody can have kept it, so nobody is told (autocommitted outside a transaction).
    return dsl.insertInto(CATALOG_OBJECTS)
        .set(CATALOG_OBJECTS.ID, object.id())
        .set(CATALOG_OBJECTS.NAMESPACE_ID, object.namespaceId())
        .set(CATALOG_OBJECTS.NAME, object.name().value())
        .set(CATALOG_OBJECTS.KIND, object.kind().name())
        .set(CATALOG_OBJECTS.METADATA_LOCATION, object.metadataLocation())
        .set(CATALOG_OBJECTS.BUCKET_ID, object.location().bucketId())
        .set(CATALOG_OBJECTS.LOCATION, object.location().path().value())
        .set(CATALOG_OBJECTS.HAS_STORAGE_OVERRIDE, object.hasStorageOverride())
        .set(CATALOG_OBJECTS.CREATED_AT, Times.of(object.createdAt()))
        .set(CATALOG_OBJECTS.UPDATED_AT, Times.of(object.updatedAt()))
        .onConflict(CATALOG_OBJECTS.NAMESPACE_ID, CATALOG_OBJECTS.NAME).doNothing()
        .execute() == 1;
  }

  @Override
  public Optional<String> current(Key key) {
    return dsl.select(CATALOG_OBJECTS.METADATA_LOCATION)
        .from(CATALOG_OBJECTS)
        .where(CATALOG_OBJECTS.ID.eq(row(key)))
        .fetchOptional(CATALOG_OBJECTS.METADATA_LOCATION);
  }

  @Override
  public boolean swap(List<Move> moves, Instant now) {
    if (moves.size() == 1) {
      return swap(moves.get(0), now);
    }
    // Several rows move together or not at all: a savepoint of their own undoes the first
    // when a later one finds its row moved, and the caller's transaction carries on.
    try {
      return database.inTransaction(() -> {
        for (Move move : moves) {
          if (!swap(move, now)) {
            throw new NotAllMoved();
          }
        }
        return true;
      });
    } catch (NotAllMoved e) {
      return false;
    }
  }

  private boolean swap(Move move, Instant now) {
    String expected = move.expected().orElseThrow(() -> new IllegalArgumentException(
        "a catalog row comes into being with its entry, never by a move"));
    return write(row(move.key()), () -> dsl.update(CATALOG_OBJECTS)
        .set(CATALOG_OBJECTS.METADATA_LOCATION, move.next())
        .set(CATALOG_OBJECTS.UPDATED_AT, Times.of(now))
        .where(CATALOG_OBJECTS.ID.eq(row(move.key())),
            CATALOG_OBJECTS.METADATA_LOCATION.eq(expected))
        .execute() == 1);
  }

  @Override
  public void lockForCommit(Collection<Key> keys) {
    dsl.select(CATALOG_OBJECTS.ID)
        .from(CATALOG_OBJECTS)
        .where(CATALOG_OBJECTS.ID.in(keys.stream().map(JooqCatalogObjectStore::row).toList()))
        .orderBy(CATALOG_OBJECTS.ID)
        .forUpdate()
        .fetch();
  }

  private static UUID row(Key key) {
    if (!(key instanceof Row row)) {
      throw new IllegalArgumentException("the catalog keeps rows' pointers, not " + key);
    }
    return row.objectId();
  }

  /** Undoes the moves of several rows when one of them had moved meanwhile. */
  private static final class NotAllMoved extends RuntimeException {
    NotAllMoved() {
      super(null, null, false, false);
    }
  }

  @Override
  public void rename(UUID objectId, UUID newNamespaceId, TableName newName, Instant now) {
    write(objectId, () -> dsl.update(CATALOG_OBJECTS)
        .set(CATALOG_OBJECTS.NAMESPACE_ID, newNamespaceId)
        .set(CATALOG_OBJECTS.NAME, newName.value())
        .set(CATALOG_OBJECTS.UPDATED_AT, Times.of(now))
        .where(CATALOG_OBJECTS.ID.eq(objectId))
        .execute());
  }

  @Override
  public boolean locationInUse(UUID bucketId, StoragePath path) {
    return dsl.fetchExists(CATALOG_OBJECTS, CATALOG_OBJECTS.BUCKET_ID.eq(bucketId)
        .and(PathConditions.overlaps(CATALOG_OBJECTS.LOCATION, path)));
  }

  @Override
  public boolean delete(UUID objectId) {
    return write(objectId, () -> {
      // A table with a prefix of its own keeps its claim, since its files stay; the namespace it
      // leaves is recorded on the claim so that the namespace's cleanup empties and releases it.
      dsl.update(PREFIX_CLAIMS)
          .set(PREFIX_CLAIMS.DROPPED_FROM_NAMESPACE_ID, dsl.select(CATALOG_OBJECTS.NAMESPACE_ID)
              .from(CATALOG_OBJECTS).where(CATALOG_OBJECTS.ID.eq(objectId)).<UUID>asField())
          .where(PREFIX_CLAIMS.OWNER_ID.eq(objectId))
          .execute();
      return dsl.deleteFrom(CATALOG_OBJECTS).where(CATALOG_OBJECTS.ID.eq(objectId))
          .execute() == 1;
    });
  }

  /**
   * Every change to an existing table or view's row: in a transaction (the caller's, or one of its
   * own), told to {@link #writes} before it is sent.
   */
  private <T> T write(UUID objectId, Supplier<T> statement) {
    return inTransaction(() -> {
      writes.beforeWrite(objectId);
      return statement.get();
    });
  }

  /** In the caller's transaction, joined without a savepoint of its own, or in one of its own. */
  private <T> T inTransaction(Supplier<T> work) {
    // A failed write fails the caller's transaction.
    return database.transactionOpen() ? work.get() : database.inTransaction(work);
  }

  static CatalogObject toObject(CatalogObjectsRecord row) {
    return new CatalogObject(row.getId(), row.getNamespaceId(), new TableName(row.getName()),
        CatalogObject.Kind.valueOf(row.getKind()), row.getMetadataLocation(),
        new StorageLocation(row.getBucketId(), new StoragePath(row.getLocation())),
        row.getHasStorageOverride(), Times.instant(row.getCreatedAt()),
        Times.instant(row.getUpdatedAt()));
  }
}
