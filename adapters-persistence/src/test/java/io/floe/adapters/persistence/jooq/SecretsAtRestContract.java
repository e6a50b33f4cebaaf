package io.floe.adapters.persistence.jooq;

import static io.floe.adapters.persistence.jooq.schema.Tables.BUCKET_CONFIGS;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.floe.adapters.persistence.DatabaseSettings;
import io.floe.adapters.persistence.TestDatabases;
import io.floe.domain.BucketConfig;
import io.floe.domain.BucketCredentials;
import io.floe.domain.CatalogName;
import io.floe.domain.Org;
import io.floe.domain.OrgName;
import io.floe.domain.StoragePath;
import io.floe.domain.StoragePlatform;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import org.jooq.JSONB;
import org.jooq.Record;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * Bucket credentials at rest, on every PostgreSQL the catalog runs on: sealed in the column,
 * bound to their row, sealed when found in plain text, sealed again under a new key, and never
 * half-way: a pass that meets a key it was not given changes nothing.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
abstract class SecretsAtRestContract {
  private static final String SECRET = "wJalrXUtnFEMI-K7MDENG-bPxRfiCYEXAMPLEKEY";
  private static final String KEY_ID = "AKIAIOSFODNN7EXAMPLE";

  private final Database database;
  private final SealingKey firstKey = SealingKey.generate("the first key");
  private final SealingKey secondKey = SealingKey.generate("the second key");
  private Org org;

  SecretsAtRestContract(DatabaseSettings server) {
    this.database = Database.open(TestDatabases.freshDatabase(server), 4);
  }

  @AfterAll
  void close() {
    database.close();
  }

  @BeforeEach
  void emptyDatabase() {
    // Every sealing pass covers the whole table; each test starts from no buckets at all.
    database.dsl().deleteFrom(BUCKET_CONFIGS).execute();
    org = new Org(UUID.randomUUID(), new OrgName("secrets-" + UUID.randomUUID().toString()
        .substring(0, 8)), true);
    store(firstKey).insertOrg(org);
  }

  @Test
  void theColumnHoldsNoSecretAndTheStoreReadsItBack() {
    BucketConfig bucket = newBucket();
    store(firstKey).insertBucket(bucket);

    Record row = rawRow(bucket.id());
    assertThat(row.get(BUCKET_CONFIGS.CREDENTIALS)).isNull();
    String sealed = row.get(BUCKET_CONFIGS.SEALED_CREDENTIALS);
    assertThat(sealed).startsWith("v1:" + firstKey.id() + ":").doesNotContain(SECRET)
        .doesNotContain(KEY_ID).doesNotContain("STATIC");
    assertThat(database.dsl().fetch("select id from bucket_configs where bucket_configs::text "
        + "like ?", "%" + SECRET + "%")).isEmpty();
    assertThat(store(firstKey).bucket(bucket.id())).contains(bucket);
  }

  @Test
  void theSameSecretIsSealedDifferentlyEveryTime() {
    SecretCipher cipher = new SecretCipher(firstKey, List.of());
    assertThat(cipher.seal(SECRET, "owner")).isNotEqualTo(cipher.seal(SECRET, "owner"));
  }

  @Test
  void aSealedValueCopiedIntoAnotherRowDoesNotOpen() {
    BucketConfig first = newBucket();
    BucketConfig second = newBucket();
    store(firstKey).insertBucket(first);
    store(firstKey).insertBucket(second);
    database.dsl().update(BUCKET_CONFIGS)
        .set(BUCKET_CONFIGS.SEALED_CREDENTIALS,
            rawRow(first.id()).get(BUCKET_CONFIGS.SEALED_CREDENTIALS))
        .where(BUCKET_CONFIGS.ID.eq(second.id())).execute();

    assertThatThrownBy(() -> store(firstKey).bucket(second.id()))
        .isInstanceOf(UnreadableSecretException.class)
        .hasMessageContaining("bucket configuration " + second.id())
        .hasMessageContaining("altered or copied from another row");
    assertThat(store(firstKey).bucket(first.id())).contains(first);
  }

  @Test
  void plainTextLeftByAnEarlierVersionIsSealedByThePass() {
    BucketConfig bucket = newBucket();
    store(firstKey).insertBucket(bucket);
    // The row as the version before sealing wrote it.
    database.dsl().update(BUCKET_CONFIGS)
        .set(BUCKET_CONFIGS.CREDENTIALS, JSONB.valueOf("{\"kind\": \"STATIC\", "
            + "\"access_key_id\": \"" + KEY_ID + "\", \"secret_access_key\": \"" + SECRET
            + "\", \"role_arn\": \"arn:aws:iam::1:role/r\"}"))
        .setNull(BUCKET_CONFIGS.SEALED_CREDENTIALS)
        .where(BUCKET_CONFIGS.ID.eq(bucket.id())).execute();
    assertThat(store(firstKey).bucket(bucket.id())).contains(bucket);

    BucketCredentialSealing.Outcome outcome =
        new BucketCredentialSealing(database, new SecretCipher(firstKey, List.of())).run();

    assertThat(outcome).isEqualTo(new BucketCredentialSealing.Outcome(1, 0, 0));
    assertThat(rawRow(bucket.id()).get(BUCKET_CONFIGS.CREDENTIALS)).isNull();
    assertThat(rawRow(bucket.id()).get(BUCKET_CONFIGS.SEALED_CREDENTIALS))
        .doesNotContain(SECRET);
    assertThat(store(firstKey).bucket(bucket.id())).contains(bucket);
  }

  @Test
  void aRotationSealsEveryRowUnderTheNewKeyInOnePass() {
    BucketConfig first = newBucket();
    BucketConfig second = newBucket();
    store(firstKey).insertBucket(first);
    store(firstKey).insertBucket(second);

    BucketCredentialSealing.Outcome outcome =
        new BucketCredentialSealing(database, new SecretCipher(secondKey, List.of(firstKey))).run();

    assertThat(outcome).isEqualTo(new BucketCredentialSealing.Outcome(0, 2, 0));
    assertThat(rawRow(first.id()).get(BUCKET_CONFIGS.SEALED_CREDENTIALS))
        .startsWith("v1:" + secondKey.id() + ":");
    assertThat(store(secondKey).bucket(first.id())).contains(first);
    assertThat(store(secondKey).bucket(second.id())).contains(second);
    assertThatThrownBy(() -> store(firstKey).bucket(first.id()))
        .isInstanceOf(UnreadableSecretException.class)
        .hasMessageContaining("sealed with key " + secondKey.id())
        .hasMessageContaining("its key is " + firstKey.id());
    // The next start finds nothing left to do.
    assertThat(new BucketCredentialSealing(database, new SecretCipher(secondKey, List.of()))
        .run()).isEqualTo(new BucketCredentialSealing.Outcome(0, 0, 2));
  }

  @Test
  void aPassWithAKeyItWasNotGivenChangesNothing() {
    BucketConfig bucket = newBucket();
    store(firstKey).insertBucket(bucket);
    // A row left in plain text, which the failing pass must not seal either.
    BucketConfig legacy = newBucket();
    store(firstKey).insertBucket(legacy);
    database.dsl().update(BUCKET_CONFIGS)
        .set(BUCKET_CONFIGS.CREDENTIALS, JSONB.valueOf("{\"kind\": \"AMBIENT\"}"))
        .setNull(BUCKET_CONFIGS.SEALED_CREDENTIALS)
        .where(BUCKET_CONFIGS.ID.eq(legacy.id())).execute();
    String before = rawRow(bucket.id()).get(BUCKET_CONFIGS.SEALED_CREDENTIALS);

    assertThatThrownBy(() -> new BucketCredentialSealing(database,
        new SecretCipher(secondKey, List.of())).run())
        .isInstanceOf(UnreadableSecretException.class)
        .hasMessageContaining(firstKey.id())
        .satisfies(error -> assertThat(((UnreadableSecretException) error).keyId())
            .isEqualTo(firstKey.id()));

    assertThat(rawRow(bucket.id()).get(BUCKET_CONFIGS.SEALED_CREDENTIALS)).isEqualTo(before);
    assertThat(rawRow(legacy.id()).get(BUCKET_CONFIGS.SEALED_CREDENTIALS)).isNull();
  }

  @Test
  void aRowMustHoldItsCredentialsOneWayOnly() {
    BucketConfig bucket = newBucket();
    store(firstKey).insertBucket(bucket);
    assertThatThrownBy(() -> database.dsl().update(BUCKET_CONFIGS)
        .set(BUCKET_CONFIGS.CREDENTIALS, JSONB.valueOf("{}"))
        .where(BUCKET_CONFIGS.ID.eq(bucket.id())).execute())
        .hasMessageContaining("bucket_configs_credentials_sealed_or_legacy");
  }

  private JooqOrgStore store(SealingKey key) {
    return new JooqOrgStore(database, new SecretCipher(key, List.of()));
  }

  private Record rawRow(UUID bucketId) {
    return database.dsl().select(BUCKET_CONFIGS.CREDENTIALS, BUCKET_CONFIGS.SEALED_CREDENTIALS)
        .from(BUCKET_CONFIGS).where(BUCKET_CONFIGS.ID.eq(bucketId)).fetchOne();
  }

  private BucketConfig newBucket() {
    return new BucketConfig(UUID.randomUUID(), org.id(),
        new CatalogName("b" + UUID.randomUUID().toString().substring(0, 8)),
        StoragePlatform.S3_COMPATIBLE, "data", new StoragePath("warehouse"),
        Optional.of("http://127.0.0.1:9000"), Optional.of("us-east-1"), true,
        BucketCredentials.staticKeys(KEY_ID, SECRET).withRole("arn:aws:iam::1:role/r"), false);
  }
}
