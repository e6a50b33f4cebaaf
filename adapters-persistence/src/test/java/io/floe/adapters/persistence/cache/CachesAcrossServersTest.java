package io.floe.adapters.persistence.cache;

import static org.assertj.core.api.Assertions.assertThat;

import io.floe.adapters.persistence.DatabaseSettings;
import io.floe.adapters.persistence.TestDatabases;
import io.floe.adapters.persistence.jooq.Database;
import io.floe.adapters.persistence.jooq.JooqIdentityDirectory;
import io.floe.adapters.persistence.jooq.JooqSoftDeleteStore;
import io.floe.adapters.persistence.jooq.SecretCipher;
import io.floe.application.port.out.CatalogObjectStore.Located;
import io.floe.application.port.out.MetadataPointers.Move;
import io.floe.application.port.out.MetadataPointers.Row;
import io.floe.application.testbed.Poll;
import io.floe.domain.ApiToken;
import io.floe.domain.BucketConfig;
import io.floe.domain.BucketCredentials;
import io.floe.domain.CatalogName;
import io.floe.domain.CatalogObject;
import io.floe.domain.Namespace;
import io.floe.domain.Org;
import io.floe.domain.OrgName;
import io.floe.domain.Principal;
import io.floe.domain.Role;
import io.floe.domain.StorageLocation;
import io.floe.domain.StoragePath;
import io.floe.domain.StoragePlatform;
import io.floe.domain.TableName;
import io.floe.domain.Visibility;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * Two servers on one PostgreSQL, each with its own caches: what one changes, the other sees at
 * once where it matters (a table's metadata pointer is never cached while another server runs)
 * and within {@link CacheInvalidations#TRUST} everywhere else (a revoked token, a dropped
 * namespace).
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class CachesAcrossServersTest {
  /** The one key both servers open bucket credentials with, as servers sharing a database do. */
  private static final SecretCipher CIPHER = TestDatabases.cipher();
  private final Instant now = Instant.now().truncatedTo(ChronoUnit.MICROS);
  private CachedServer first;
  private CachedServer second;
  private Org org;
  private BucketConfig bucket;

  @BeforeAll
  void startTwoServers() throws InterruptedException {
    DatabaseSettings settings = TestDatabases.freshDatabase(TestDatabases.embeddedServer());
    Database.open(settings, 2).close(); // migrated once, before both servers start
    first = new CachedServer(settings, CIPHER).listening();
    second = new CachedServer(settings, CIPHER).listening();
  }

  @AfterAll
  void stopServers() {
    if (first != null) {
      first.close();
    }
    if (second != null) {
      second.close();
    }
  }

  @BeforeEach
  void newOrg() {
    org = new Org(UUID.randomUUID(), new OrgName("org-" + UUID.randomUUID().toString()
        .substring(0, 8)), true);
    first.orgs.insertOrg(org);
    bucket = new BucketConfig(UUID.randomUUID(), org.id(), new CatalogName("main"),
        StoragePlatform.S3_COMPATIBLE, "data", new StoragePath("warehouse"),
        Optional.of("http://127.0.0.1:9000"), Optional.of("us-east-1"), true,
        BucketCredentials.staticKeys("AK", "SK"), true);
    first.orgs.insertBucket(bucket);
  }

  @Test
  void aTokenRevokedOnOneServerIsRefusedByTheOtherWithinTheTrustWindow() throws Exception {
    Principal alice = new Principal(UUID.randomUUID(), Principal.Kind.USER, "alice");
    new JooqIdentityDirectory(first.database).createMember(alice, org.id(), Role.MEMBER,
        Optional.empty());
    ApiToken token = new ApiToken(UUID.randomUUID(), alice.id(),
        ApiToken.hash(ApiToken.PREFIX + UUID.randomUUID() + UUID.randomUUID()), now,
        Optional.empty(), Optional.empty());
    first.principals.insertToken(token);

    // The insert's own announcement reaches the second server at some point and empties its
    // cache once; until then a read may miss, after that the token is served from the cache.
    long hitsBefore = second.hits("tokens");
    Poll.until(() -> {
      assertThat(second.principals.findTokenByHash(token.secretHash())).contains(token);
      assertThat(second.principals.findTokenByHash(token.secretHash())).contains(token);
      return second.hits("tokens") != hitsBefore;
    }, Duration.ofSeconds(10));
    assertThat(second.hits("tokens")).as("the token is served from the cache").isGreaterThan(
        hitsBefore);

    new JooqIdentityDirectory(first.database).revokeToken(token.id(), now);
    withinTrust(() -> second.principals.findTokenByHash(token.secretHash()).orElseThrow()
        .revokedAt().isPresent());
    assertThat(second.principals.findTokenByHash(token.secretHash()).orElseThrow().revokedAt())
        .isPresent();
    assertThat(first.principals.findTokenByHash(token.secretHash()).orElseThrow().revokedAt())
        .as("the server that revoked it forgot at once").isPresent();
  }

  @Test
  void aCommitOnOneServerIsSeenByALoadOnTheOtherAtOnce() {
    Namespace namespace = namespace("sales");
    CatalogObject table = table(namespace, "orders");
    TableName name = new TableName("orders");

    assertThat(second.objects.locate(org.id(), namespace.name(), name)
        .flatMap(Located::object).orElseThrow().metadataLocation()).isEqualTo("v0");
    long hitsBefore = second.hits("namespaces");
    Located located = second.objects.locate(org.id(), namespace.name(), name).orElseThrow();
    assertThat(second.hits("namespaces")).as("the namespace is served from the cache")
        .isGreaterThan(hitsBefore);
    assertThat(located.bucket()).contains(bucket);

    assertThat(first.objectRows.swap(
        List.of(Move.of(new Row(table.id()), "v0", "v1")), now)).isTrue();
    assertThat(second.objects.locate(org.id(), namespace.name(), name)
        .flatMap(Located::object).orElseThrow().metadataLocation()).isEqualTo("v1");
  }

  @Test
  void aNamespaceDroppedOnOneServerIsGoneOnTheOtherWithinTheTrustWindow() throws Exception {
    Namespace namespace = namespace("dropped");
    table(namespace, "t");
    TableName name = new TableName("t");
    assertThat(second.objects.locate(org.id(), namespace.name(), name)).isPresent();
    assertThat(second.namespaces.findLive(org.id(), namespace.name())).isPresent();

    JooqSoftDeleteStore.namespaces(first.database).markDeleted(namespace.id(), now,
        now.plusSeconds(60), false, false);
    withinTrust(() -> second.objects.locate(org.id(), namespace.name(), name).isEmpty());
    assertThat(second.objects.locate(org.id(), namespace.name(), name)).isEmpty();
    assertThat(second.namespaces.findLive(org.id(), namespace.name())).isEmpty();
  }

  @Test
  void tokenUsesAreWrittenInOneBatch() {
    Principal bob = new Principal(UUID.randomUUID(), Principal.Kind.USER, "bob");
    new JooqIdentityDirectory(first.database).createMember(bob, org.id(), Role.MEMBER,
        Optional.empty());
    ApiToken token = new ApiToken(UUID.randomUUID(), bob.id(),
        ApiToken.hash(ApiToken.PREFIX + UUID.randomUUID() + UUID.randomUUID()), now,
        Optional.empty(), Optional.empty());
    first.principals.insertToken(token);
    long statements = first.database.statementsExecuted();
    for (int i = 0; i < 100; i++) {
      first.principals.touchToken(token.id(), now.plusMillis(i));
    }
    assertThat(first.database.statementsExecuted()).as("noting a use costs no round trip")
        .isEqualTo(statements);
    first.tokenUses.flush();
    assertThat(first.database.statementsExecuted()).isEqualTo(statements + 1);
  }

  private Namespace namespace(String name) {
    Namespace namespace = new Namespace(UUID.randomUUID(), org.id(), new CatalogName(name),
        bucket.id(), new StoragePath("warehouse/" + UUID.randomUUID().toString().substring(0, 8)
            + "_" + name), Map.of(), Optional.empty(), Map.of(), Visibility.PRIVATE, now, now,
        Optional.empty());
    first.namespaces.insert(namespace);
    return namespace;
  }

  private CatalogObject table(Namespace namespace, String name) {
    CatalogObject table = new CatalogObject(UUID.randomUUID(), namespace.id(),
        new TableName(name), CatalogObject.Kind.TABLE, "v0",
        new StorageLocation(bucket.id(), namespace.prefix().resolve(name)), false, now, now);
    assertThat(first.objects.insert(table)).isTrue();
    return table;
  }

  /**
   * Waits for another server's change to arrive, at most {@link CacheInvalidations#TRUST} (the
   * bound the cache promises); the assertions that follow check it did.
   */
  private static void withinTrust(java.util.function.BooleanSupplier arrived)
      throws InterruptedException {
    Poll.until(arrived, CacheInvalidations.TRUST);
  }
}
