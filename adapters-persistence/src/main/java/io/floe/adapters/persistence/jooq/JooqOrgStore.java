package io.floe.adapters.persistence.jooq;

import static io.floe.adapters.persistence.jooq.schema.Tables.BUCKET_CONFIGS;
import static io.floe.adapters.persistence.jooq.schema.Tables.CATALOG_OBJECTS;
import static io.floe.adapters.persistence.jooq.schema.Tables.NAMESPACES;
import static io.floe.adapters.persistence.jooq.schema.Tables.ORGS;
import static io.floe.adapters.persistence.jooq.schema.Tables.PREFIX_CLAIMS;

import io.floe.adapters.persistence.jooq.schema.tables.records.BucketConfigsRecord;
import io.floe.adapters.persistence.jooq.schema.tables.records.OrgsRecord;
import io.floe.application.port.out.OrgStore;
import io.floe.domain.BucketConfig;
import io.floe.domain.CatalogName;
import io.floe.domain.Org;
import io.floe.domain.OrgName;
import io.floe.domain.StoragePath;
import io.floe.domain.StoragePlatform;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import org.jooq.DSLContext;
import org.jooq.impl.DSL;

/**
 * Orgs and bucket configurations in PostgreSQL. Bucket credentials are sealed with the
 * {@link SecretCipher} before they are written and opened when they are read: the database never
 * holds them in plain text, and the application never sees them sealed.
 */
public final class JooqOrgStore implements OrgStore {
  /** The advisory lock that orders local bucket placements (an arbitrary, fixed key). */
  private static final long LOCAL_BUCKET_PLACEMENT_LOCK = 0x466c6f654c6f63L;

  private final DSLContext dsl;
  private final SealedCredentials credentials;

  public JooqOrgStore(Database database, SecretCipher cipher) {
    this.dsl = database.dsl();
    this.credentials = new SealedCredentials(cipher);
  }

  @Override
  public Optional<Org> findOrg(OrgName name) {
    return dsl.selectFrom(ORGS).where(ORGS.NAME.eq(name.value())).fetchOptional()
        .map(JooqOrgStore::toOrg);
  }

  @Override
  public Optional<Org> findOrg(UUID id) {
    return dsl.selectFrom(ORGS).where(ORGS.ID.eq(id)).fetchOptional().map(JooqOrgStore::toOrg);
  }

  @Override
  public boolean insertOrg(Org org) {
    return dsl.insertInto(ORGS).set(ORGS.ID, org.id()).set(ORGS.NAME, org.name().value())
        .set(ORGS.ICEBERG_ENABLED, org.icebergEnabled())
        .onConflict(ORGS.NAME).doNothing()
        .execute() == 1;
  }

  @Override
  public void setIcebergEnabled(UUID orgId, boolean enabled) {
    dsl.update(ORGS).set(ORGS.ICEBERG_ENABLED, enabled).where(ORGS.ID.eq(orgId)).execute();
  }

  @Override
  public List<BucketConfig> buckets(UUID orgId) {
    return dsl.selectFrom(BUCKET_CONFIGS).where(BUCKET_CONFIGS.ORG_ID.eq(orgId))
        .orderBy(BUCKET_CONFIGS.NICKNAME).fetch(this::toBucket);
  }

  @Override
  public List<BucketConfig> bucketsOn(StoragePlatform platform) {
    return dsl.selectFrom(BUCKET_CONFIGS).where(BUCKET_CONFIGS.PLATFORM.eq(platform.wireName()))
        .orderBy(BUCKET_CONFIGS.ID).fetch(this::toBucket);
  }

  @Override
  public Optional<BucketConfig> bucket(UUID orgId, CatalogName nickname) {
    return dsl.selectFrom(BUCKET_CONFIGS)
        .where(BUCKET_CONFIGS.ORG_ID.eq(orgId), BUCKET_CONFIGS.NICKNAME_KEY.eq(nickname.key()))
        .fetchOptional().map(this::toBucket);
  }

  @Override
  public Optional<BucketConfig> bucket(UUID bucketId) {
    return dsl.selectFrom(BUCKET_CONFIGS).where(BUCKET_CONFIGS.ID.eq(bucketId)).fetchOptional()
        .map(this::toBucket);
  }

  @Override
  public Optional<BucketConfig> defaultBucket(UUID orgId) {
    return dsl.selectFrom(BUCKET_CONFIGS)
        .where(BUCKET_CONFIGS.ORG_ID.eq(orgId), BUCKET_CONFIGS.IS_DEFAULT.isTrue())
        .fetchOptional().map(this::toBucket);
  }

  @Override
  public void insertBucket(BucketConfig bucket) {
    dsl.insertInto(BUCKET_CONFIGS)
        .set(BUCKET_CONFIGS.ID, bucket.id())
        .set(BUCKET_CONFIGS.ORG_ID, bucket.orgId())
        .set(BUCKET_CONFIGS.NICKNAME, bucket.nickname().value())
        .set(BUCKET_CONFIGS.NICKNAME_KEY, bucket.nickname().key())
        .set(BUCKET_CONFIGS.PLATFORM, bucket.platform().wireName())
        .set(BUCKET_CONFIGS.BUCKET, bucket.bucket())
        .set(BUCKET_CONFIGS.PREFIX, bucket.prefix().value())
        .set(BUCKET_CONFIGS.ENDPOINT, bucket.endpoint().orElse(null))
        .set(BUCKET_CONFIGS.REGION, bucket.region().orElse(null))
        .set(BUCKET_CONFIGS.PATH_STYLE, bucket.pathStyle())
        .set(BUCKET_CONFIGS.SEALED_CREDENTIALS,
            credentials.seal(bucket.id(), bucket.credentials()))
        .set(BUCKET_CONFIGS.IS_DEFAULT, bucket.isDefault())
        .execute();
  }

  @Override
  public void updateBucket(BucketConfig bucket) {
    dsl.update(BUCKET_CONFIGS)
        .set(BUCKET_CONFIGS.PLATFORM, bucket.platform().wireName())
        .set(BUCKET_CONFIGS.BUCKET, bucket.bucket())
        .set(BUCKET_CONFIGS.PREFIX, bucket.prefix().value())
        .set(BUCKET_CONFIGS.ENDPOINT, bucket.endpoint().orElse(null))
        .set(BUCKET_CONFIGS.REGION, bucket.region().orElse(null))
        .set(BUCKET_CONFIGS.PATH_STYLE, bucket.pathStyle())
        .set(BUCKET_CONFIGS.SEALED_CREDENTIALS,
            credentials.seal(bucket.id(), bucket.credentials()))
        .setNull(BUCKET_CONFIGS.CREDENTIALS)
        .where(BUCKET_CONFIGS.ID.eq(bucket.id()))
        .execute();
  }

  @Override
  public void deleteBucket(UUID bucketId) {
    dsl.deleteFrom(BUCKET_CONFIGS).where(BUCKET_CONFIGS.ID.eq(bucketId)).execute();
  }

  @Override
  public void setDefaultBucket(UUID orgId, UUID bucketId) {
    // Two statements: the index allowing one default per org is checked row by row.
    dsl.update(BUCKET_CONFIGS).set(BUCKET_CONFIGS.IS_DEFAULT, false)
        .where(BUCKET_CONFIGS.ORG_ID.eq(orgId), BUCKET_CONFIGS.IS_DEFAULT.isTrue()).execute();
    dsl.update(BUCKET_CONFIGS).set(BUCKET_CONFIGS.IS_DEFAULT, true)
        .where(BUCKET_CONFIGS.ORG_ID.eq(orgId), BUCKET_CONFIGS.ID.eq(bucketId)).execute();
  }

  @Override
  public boolean isBucketInUse(UUID bucketId) {
    return dsl.fetchExists(PREFIX_CLAIMS, PREFIX_CLAIMS.BUCKET_ID.eq(bucketId))
        || dsl.fetchExists(NAMESPACES, NAMESPACES.BUCKET_ID.eq(bucketId))
        || dsl.fetchExists(CATALOG_OBJECTS, CATALOG_OBJECTS.BUCKET_ID.eq(bucketId));
  }

  @Override
  public void lockBucket(UUID bucketId) {
    dsl.select(BUCKET_CONFIGS.ID).from(BUCKET_CONFIGS).where(BUCKET_CONFIGS.ID.eq(bucketId))
        .forUpdate().fetch();
  }

  @Override
  public void lockLocalBucketPlacement() {
    dsl.select(DSL.field("pg_advisory_xact_lock({0})", Object.class,
        DSL.val(LOCAL_BUCKET_PLACEMENT_LOCK))).fetch();
  }

  static Org toOrg(OrgsRecord row) {
    return new Org(row.getId(), new OrgName(row.getName()), row.getIcebergEnabled());
  }

  private BucketConfig toBucket(BucketConfigsRecord row) {
    return toBucket(row, credentials);
  }

  /** A bucket row as the application sees it: its credentials opened. */
  static BucketConfig toBucket(BucketConfigsRecord row, SealedCredentials credentials) {
    return new BucketConfig(row.getId(), row.getOrgId(), new CatalogName(row.getNickname()),
        StoragePlatform.fromWireName(row.getPlatform()), row.getBucket(),
        new StoragePath(row.getPrefix()), Optional.ofNullable(row.getEndpoint()),
        Optional.ofNullable(row.getRegion()), row.getPathStyle(),
        credentials.open(row.getId(), row.getSealedCredentials(), row.getCredentials()),
        row.getIsDefault());
  }
}
