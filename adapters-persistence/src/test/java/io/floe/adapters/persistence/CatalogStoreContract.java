package io.floe.adapters.persistence;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.floe.application.model.AuditAction;
import io.floe.application.model.AuditEntry;
import io.floe.application.model.AuditPage;
import io.floe.application.model.AuditQuery;
import io.floe.application.model.AuditTarget;
import io.floe.application.model.AuditedChange;
import io.floe.application.port.out.IdempotencyStore;
import io.floe.application.port.out.NameRegistry;
import io.floe.domain.ApiToken;
import io.floe.domain.BucketConfig;
import io.floe.domain.BucketCredentials;
import io.floe.domain.CatalogName;
import io.floe.domain.CatalogObject;
import io.floe.domain.Namespace;
import io.floe.domain.Org;
import io.floe.domain.OrgName;
import io.floe.domain.PrefixClaim;
import io.floe.domain.Principal;
import io.floe.domain.StorageLocation;
import io.floe.domain.StoragePath;
import io.floe.domain.StoragePlatform;
import io.floe.domain.TableName;
import io.floe.domain.Visibility;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * What every PostgreSQL the catalog runs on must do, run once per server (embedded, external).
 * Each test works in an org of its own inside one fresh, migrated database.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
abstract class CatalogStoreContract {
  private final Database database;
  private final JooqOrgStore orgs;
  private final JooqPrincipalStore principals;
  private final JooqNamespaceStore namespaces;
  private final JooqCatalogObjectStore objects;
  private final JooqNameRegistry names;
  private final JooqPrefixClaimStore claims;
  private final JooqIdempotencyStore idempotency;
  private final JooqAuditLog audit;
  private Org org;
  private BucketConfig bucket;

  CatalogStoreContract(DatabaseSettings server) {
    DatabaseSettings settings = TestDatabases.freshDatabase(server);
    // Opening twice proves the migrations are idempotent on an up-to-date schema.
    Database.open(settings, 2).close();
    this.database = Database.open(settings, 8);
    this.orgs = new JooqOrgStore(database, TestDatabases.cipher());
    this.principals = new JooqPrincipalStore(database);
    this.namespaces = new JooqNamespaceStore(database);
    this.objects = new JooqCatalogObjectStore(database);
    this.names = new JooqNameRegistry(database);
    this.claims = new JooqPrefixClaimStore(database);
    this.idempotency = new JooqIdempotencyStore(database);
    this.audit = new JooqAuditLog(database);
  }

  @AfterAll
  void close() {
    database.close();
  }

  @BeforeEach
  void newOrg() {
    org = new Org(UUID.randomUUID(), new OrgName("org-" + UUID.randomUUID().toString()
        .substring(0, 8)), true);
    orgs.insertOrg(org);
    bucket = bucket("main", true);
    orgs.insertBucket(bucket);
  }

  private BucketConfig bucket(String nickname, boolean isDefault) {
    return new BucketConfig(UUID.randomUUID(), org.id(), new CatalogName(nickname),
        StoragePlatform.S3_COMPATIBLE, "data", new StoragePath("warehouse"),
        Optional.of("http://127.0.0.1:9000"), Optional.of("us-east-1"), true,
        BucketCredentials.staticKeys("AK", "SK").withRole("arn:aws:iam::1:role/r"), isDefault);
  }

  @Test
  void orgsAndBucketsRoundTrip() {
    assertThat(orgs.findOrg(org.name())).contains(org);
    assertThat(orgs.defaultBucket(org.id())).contains(bucket);
    assertThat(orgs.bucket(org.id(), new CatalogName("MAIN"))).contains(bucket);
    assertThat(orgs.bucket(bucket.id()).orElseThrow().credentials().secretAccessKey())
        .contains("SK");
  }

  @Test
  void anOrgNameIsTakenOnce() {
    assertThat(orgs.insertOrg(new Org(UUID.randomUUID(), org.name(), false))).isFalse();
    assertThat(orgs.findOrg(org.name())).contains(org);
  }

  @Test
  void anOrgHasAtMostOneDefaultBucket() {
    assertThatThrownBy(() -> orgs.insertBucket(bucket("second", true)))
        .hasMessageContaining("bucket_configs_one_default");
    orgs.insertBucket(bucket("third", false));
    assertThat(orgs.buckets(org.id())).hasSize(2);
  }

  @Test
  void tokensAreFoundByHashOnly() {
    Principal admin = new Principal(UUID.randomUUID(), Principal.Kind.API_CLIENT, "ci");
    principals.insertPrincipal(admin);
    ApiToken token = new ApiToken(UUID.randomUUID(), admin.id(), ApiToken.hash("ema_secret"),
        Instant.now().truncatedTo(ChronoUnit.MICROS), Optional.empty(), Optional.empty());
    principals.insertToken(token);
    assertThat(principals.findTokenByHash(ApiToken.hash("ema_secret"))).contains(token);
    assertThat(principals.findTokenByHash("ema_secret")).isEmpty();
    principals.touchToken(token.id(), Instant.now());
  }

  @Test
  void namesAreSharedCaseInsensitively() {
    UUID namespace = UUID.randomUUID();
    assertThat(names.reserve(org.id(), new CatalogName("Obs"), PrefixClaim.OwnerKind.NAMESPACE,
        namespace)).isEmpty();
    assertThat(names.reserve(org.id(), new CatalogName("OBS"), PrefixClaim.OwnerKind.REPO,
        UUID.randomUUID()))
        .contains(new NameRegistry.Holder(PrefixClaim.OwnerKind.NAMESPACE, namespace));
    names.release(org.id(), new CatalogName("obs"));
    assertThat(names.reserve(org.id(), new CatalogName("obs"), PrefixClaim.OwnerKind.REPO,
        UUID.randomUUID())).isEmpty();
  }

  @Test
  void overlappingClaimsAreFoundSegmentWise() {
    claim("warehouse/ab_c");
    claim("warehouse/x%y");
    assertThat(claims.overlapping(bucket.id(), new StoragePath("warehouse/ab_c"))).hasSize(1);
    assertThat(claims.overlapping(bucket.id(), new StoragePath("warehouse"))).hasSize(2);
    assertThat(claims.overlapping(bucket.id(), new StoragePath("warehouse/ab_c/t"))).hasSize(1);
    // Textual prefixes and LIKE wildcards are not overlaps.
    assertThat(claims.overlapping(bucket.id(), new StoragePath("warehouse/ab_cd"))).isEmpty();
    assertThat(claims.overlapping(bucket.id(), new StoragePath("warehouse/abXc"))).isEmpty();
    assertThat(claims.overlapping(bucket.id(), new StoragePath("warehouse/xZy"))).isEmpty();
    assertThat(claims.overlapping(UUID.randomUUID(), new StoragePath("warehouse"))).isEmpty();
  }

  @Test
  void pointersMoveOnlyFromTheExpectedLocation() {
    CatalogObject table = table(namespace("ns"), "t", "v0");
    assertThat(objects.swap(table.id(), "v0", "v1", Instant.now())).isTrue();
    assertThat(objects.swap(table.id(), "v0", "v2", Instant.now())).isFalse();
    assertThat(objects.find(org.id(), new CatalogName("NS"), new TableName("t")).orElseThrow()
        .metadataLocation()).isEqualTo("v1");
  }

  @Test
  void exactlyOneOfManyRacingWritersWins() throws Exception {
    CatalogObject table = table(namespace("race"), "t", "base");
    int writers = 8;
    CountDownLatch start = new CountDownLatch(1);
    ExecutorService pool = Executors.newFixedThreadPool(writers);
    try {
      List<Future<Boolean>> results = new ArrayList<>();
      for (int i = 0; i < writers; i++) {
        String next = "next-" + i;
        Callable<Boolean> writer = () -> {
          start.await();
          return database.inTransaction(
              () -> objects.swap(table.id(), "base", next, Instant.now()));
        };
        results.add(pool.submit(writer));
      }
      start.countDown();
      int winners = 0;
      for (Future<Boolean> result : results) {
        winners += result.get() ? 1 : 0;
      }
      assertThat(winners).isEqualTo(1);
    } finally {
      pool.shutdownNow();
    }
  }

  @Test
  void locationsInUseAreFoundSegmentWise() {
    Namespace ns = namespace("loc");
    table(ns, "t_1", "v0");
    StoragePath location = ns.prefix().resolve("t_1");
    assertThat(objects.locationInUse(bucket.id(), location)).isTrue();
    assertThat(objects.locationInUse(bucket.id(), location.resolve("data"))).isTrue();
    assertThat(objects.locationInUse(bucket.id(), ns.prefix())).isTrue();
    assertThat(objects.locationInUse(bucket.id(), ns.prefix().resolve("t_10"))).isFalse();
    assertThat(objects.locationInUse(bucket.id(), ns.prefix().resolve("tX1"))).isFalse();
    assertThat(objects.locationInUse(UUID.randomUUID(), location)).isFalse();
  }

  @Test
  void aNamespaceHoldsOneObjectPerName() {
    Namespace ns = namespace("dup");
    table(ns, "t", "a");
    assertThat(objects.insert(object(ns, "t", "b", CatalogObject.Kind.VIEW))).isFalse();
  }

  @Test
  void keysetPagesCoverEveryNamespaceOnceInOrder() {
    for (int i = 0; i < 25; i++) {
      namespace(String.format("ns-%02d", i));
    }
    List<String> seen = new ArrayList<>();
    Optional<String> after = Optional.empty();
    while (true) {
      List<Namespace> page = namespaces.listLive(org.id(), after, 10);
      page.forEach(ns -> seen.add(ns.name().value()));
      if (page.size() < 10) {
        break;
      }
      after = Optional.of(page.get(page.size() - 1).name().value());
    }
    assertThat(seen).hasSize(25).isSorted().doesNotHaveDuplicates();
  }

  @Test
  void propertyUpdatesApplyRemovalsThenUpdatesInOneStatement() {
    Namespace ns = namespace("props");
    namespaces.updateProperties(ns.id(), Set.of(), Map.of("a", "1", "b", "2"), Instant.now());
    Namespace updated =
        namespaces.updateProperties(ns.id(), Set.of("a"), Map.of("c", "3"), Instant.now());
    assertThat(updated.properties()).containsExactlyInAnyOrderEntriesOf(Map.of("b", "2", "c", "3"));
  }

  @Test
  void softDeletedNamespacesAreNoLongerFoundByName() {
    Namespace ns = namespace("gone");
    JooqSoftDeleteStore.namespaces(database).markDeleted(ns.id(), Instant.now(),
        Instant.now().plusSeconds(60), false, false);
    assertThat(namespaces.findLive(org.id(), new CatalogName("gone"))).isEmpty();
    assertThat(namespaces.listLive(org.id(), Optional.empty(), 10)).isEmpty();
  }

  @Test
  void aFailedUnitOfWorkLeavesNothingBehind() {
    Namespace ns = namespace("atomic");
    assertThatThrownBy(() -> database.inTransaction(() -> {
      table(ns, "kept-nowhere", "v0");
      throw new IllegalStateException("boom");
    })).hasMessage("boom");
    assertThat(objects.find(org.id(), ns.name(), new TableName("kept-nowhere"))).isEmpty();
  }

  @Test
  void aFailedNestedUnitRollsBackOnlyItself() {
    Namespace ns = namespace("nested");
    database.inTransaction(() -> {
      table(ns, "outer", "v0");
      try {
        database.inTransaction(() -> {
          table(ns, "inner", "v0");
          throw new IllegalStateException("inner fails");
        });
      } catch (IllegalStateException expected) {
        // the outer unit carries on
      }
    });
    assertThat(objects.find(org.id(), ns.name(), new TableName("outer"))).isPresent();
    assertThat(objects.find(org.id(), ns.name(), new TableName("inner"))).isEmpty();
  }

  @Test
  void idempotencyRecordsReplayUntilTheyExpire() {
    Instant now = Instant.now();
    UUID caller = principal("caller");
    IdempotencyStore.Recorded first = new IdempotencyStore.Recorded("POST /t a1", "{}");
    assertThat(idempotency.record(org.id(), caller, "key-1", first, now.plusSeconds(60))).isTrue();
    assertThat(idempotency.record(org.id(), caller, "key-1",
        new IdempotencyStore.Recorded("POST /t b2", "{\"other\":1}"), now.plusSeconds(60)))
        .isFalse();
    assertThat(idempotency.find(org.id(), caller, "key-1", now)).contains(first);
    assertThat(idempotency.find(org.id(), caller, "key-1", now.plusSeconds(61))).isEmpty();
    assertThat(idempotency.deleteExpired(now.plusSeconds(61))).isGreaterThanOrEqualTo(1);
  }

  @Test
  void anIdempotencyKeyBelongsToOnePrincipal() {
    Instant now = Instant.now();
    UUID caller = principal("caller");
    UUID other = principal("other");
    IdempotencyStore.Recorded mine = new IdempotencyStore.Recorded("POST /t a1", "{\"mine\":1}");
    assertThat(idempotency.record(org.id(), caller, "shared", mine, now.plusSeconds(60))).isTrue();
    assertThat(idempotency.find(org.id(), other, "shared", now)).isEmpty();
    IdempotencyStore.Recorded theirs = new IdempotencyStore.Recorded("POST /t a1", "{}");
    assertThat(idempotency.record(org.id(), other, "shared", theirs, now.plusSeconds(60)))
        .isTrue();
    assertThat(idempotency.find(org.id(), caller, "shared", now)).contains(mine);
    assertThat(idempotency.find(org.id(), other, "shared", now)).contains(theirs);
  }

  @Test
  void theAuditLogPagesNewestFirstAndFilters() {
    Principal ada = new Principal(UUID.randomUUID(), Principal.Kind.USER, "ada");
    Principal bob = new Principal(UUID.randomUUID(), Principal.Kind.API_CLIENT, "bob");
    Instant start = Instant.parse("2026-01-01T00:00:00Z");
    for (int i = 0; i < 5; i++) {
      audit.append(org.id(), start.plusSeconds(i), i % 2 == 0 ? ada : bob, "request-" + i,
          List.of(AuditedChange.of(AuditAction.TABLE_COMMIT, AuditTarget.Kind.TABLE, "ns.t" + i)
              .with("updates", List.of("add-snapshot")).with("n", i)));
    }
    // Two changes of one request (a multi-table transaction) in one statement.
    audit.append(org.id(), start.plusSeconds(5), ada, "request-5", List.of(
        AuditedChange.of(AuditAction.TABLE_COMMIT, AuditTarget.Kind.TABLE, "ns.a"),
        AuditedChange.of(AuditAction.TABLE_COMMIT, AuditTarget.Kind.TABLE, "ns.b")));

    AuditPage first = audit.list(org.id(), query(Optional.empty(), Optional.empty(),
        Optional.empty(), OptionalLong.empty(), 3));
    assertThat(first.entries()).extracting(AuditEntry::targetName)
        .containsExactly("ns.b", "ns.a", "ns.t4");
    AuditEntry t4 = first.entries().get(2);
    assertThat(t4.principalName()).isEqualTo("ada");
    assertThat(t4.action()).isEqualTo("table.commit");
    assertThat(t4.targetKind()).isEqualTo("table");
    assertThat(t4.requestId()).isEqualTo("request-4");
    assertThat(t4.recordedAt()).isEqualTo(start.plusSeconds(4));
    assertThat(t4.details()).containsEntry("updates", List.of("add-snapshot"))
        .containsEntry("n", 4);
    AuditPage rest = audit.list(org.id(), query(Optional.empty(), Optional.empty(),
        Optional.empty(), first.nextBefore(), 3));
    assertThat(rest.entries()).extracting(AuditEntry::targetName)
        .containsExactly("ns.t3", "ns.t2", "ns.t1");
    assertThat(audit.list(org.id(), query(Optional.empty(), Optional.empty(), Optional.empty(),
        rest.nextBefore(), 3)).entries()).extracting(AuditEntry::targetName)
        .containsExactly("ns.t0");

    assertThat(audit.list(org.id(), query(Optional.of(bob.id()), Optional.empty(),
        Optional.empty(), OptionalLong.empty(), 10)).entries())
        .extracting(AuditEntry::targetName).containsExactly("ns.t3", "ns.t1");
    assertThat(audit.list(org.id(), query(Optional.empty(), Optional.of(start.plusSeconds(2)),
        Optional.of(start.plusSeconds(4)), OptionalLong.empty(), 10)).entries())
        .extracting(AuditEntry::targetName).containsExactly("ns.t3", "ns.t2");
    assertThat(audit.list(UUID.randomUUID(), AuditQuery.all()).entries()).isEmpty();
  }

  @Test
  void anAuditEntryRollsBackWithItsChange() {
    Principal ada = new Principal(UUID.randomUUID(), Principal.Kind.USER, "ada");
    assertThatThrownBy(() -> database.inTransaction(() -> {
      audit.append(org.id(), Instant.now(), ada, "r", List.of(AuditedChange.of(
          AuditAction.NAMESPACE_CREATE, AuditTarget.Kind.NAMESPACE, "gone")));
      throw new IllegalStateException("the change failed");
    })).hasMessage("the change failed");
    assertThat(audit.list(org.id(), AuditQuery.all()).entries()).isEmpty();
  }

  private static AuditQuery query(Optional<UUID> principal, Optional<Instant> since,
      Optional<Instant> until, OptionalLong before, int limit) {
    return new AuditQuery(principal, Optional.empty(), Optional.empty(), Optional.empty(), since,
        until, before, limit);
  }

  private UUID principal(String name) {
    Principal principal = new Principal(UUID.randomUUID(), Principal.Kind.USER, name);
    principals.insertPrincipal(principal);
    return principal.id();
  }

  private void claim(String path) {
    claims.insert(new PrefixClaim(bucket.id(), new StoragePath(path),
        new PrefixClaim.Owner(PrefixClaim.OwnerKind.NAMESPACE, UUID.randomUUID())));
  }

  private Namespace namespace(String name) {
    Instant now = Instant.now().truncatedTo(ChronoUnit.MICROS);
    Namespace ns = new Namespace(UUID.randomUUID(), org.id(), new CatalogName(name), bucket.id(),
        new StoragePath("warehouse/" + name), Map.of(), Optional.empty(), Map.of(),
        Visibility.PRIVATE, now, now, Optional.empty());
    namespaces.insert(ns);
    return ns;
  }

  private CatalogObject table(Namespace ns, String name, String metadataLocation) {
    CatalogObject table = object(ns, name, metadataLocation, CatalogObject.Kind.TABLE);
    assertThat(objects.insert(table)).isTrue();
    return table;
  }

  private CatalogObject object(Namespace ns, String name, String metadataLocation,
      CatalogObject.Kind kind) {
    Instant now = Instant.now().truncatedTo(ChronoUnit.MICROS);
    return new CatalogObject(UUID.randomUUID(), ns.id(), new TableName(name), kind,
        metadataLocation, new StorageLocation(bucket.id(), ns.prefix().resolve(name)), false, now,
        now);
  }
}
