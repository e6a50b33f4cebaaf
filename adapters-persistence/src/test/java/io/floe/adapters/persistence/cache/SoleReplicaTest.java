package io.floe.adapters.persistence.cache;

import static org.assertj.core.api.Assertions.assertThat;

import io.floe.adapters.persistence.DatabaseSettings;
import io.floe.adapters.persistence.TestDatabases;
import io.floe.adapters.persistence.jooq.AdvisoryLocks;
import io.floe.adapters.persistence.jooq.SecretCipher;
import io.floe.application.port.out.MetadataPointers.Move;
import io.floe.application.port.out.MetadataPointers.Row;
import io.floe.application.port.out.CatalogObjectStore.Located;
import io.floe.domain.BucketConfig;
import io.floe.domain.BucketCredentials;
import io.floe.domain.CatalogName;
import io.floe.domain.CatalogObject;
import io.floe.domain.Namespace;
import io.floe.domain.Org;
import io.floe.domain.OrgName;
import io.floe.domain.StorageLocation;
import io.floe.domain.StoragePath;
import io.floe.domain.StoragePlatform;
import io.floe.domain.TableName;
import io.floe.domain.Visibility;
import java.util.List;
import java.sql.Connection;
import java.sql.DriverManager;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The only server on a database keeps tables' metadata pointers in memory and loads them without
 * asking PostgreSQL; as soon as a second server starts, both read every pointer from PostgreSQL,
 * so that a commit through either is loaded through the other at once.
 */
class SoleReplicaTest {
  private static final SecretCipher CIPHER = TestDatabases.cipher();
  private final Instant now = Instant.now().truncatedTo(ChronoUnit.MICROS);
  private DatabaseSettings settings;
  private CachedServer first;
  private CachedServer second;
  private Namespace namespace;
  private CatalogObject table;

  @BeforeEach
  void startOneServer() throws InterruptedException {
    settings = TestDatabases.freshDatabase(TestDatabases.embeddedServer());
    first = new CachedServer(settings, CIPHER).listening();
    Org org = new Org(UUID.randomUUID(), new OrgName("org-sole"), true);
    first.orgs.insertOrg(org);
    BucketConfig bucket = new BucketConfig(UUID.randomUUID(), org.id(), new CatalogName("main"),
        StoragePlatform.S3_COMPATIBLE, "data", new StoragePath("warehouse"),
        Optional.of("http://127.0.0.1:9000"), Optional.of("us-east-1"), true,
        BucketCredentials.staticKeys("AK", "SK"), true);
    first.orgs.insertBucket(bucket);
    namespace = new Namespace(UUID.randomUUID(), org.id(), new CatalogName("sales"), bucket.id(),
        new StoragePath("warehouse/sales"), Map.of(), Optional.empty(), Map.of(),
        Visibility.PRIVATE, now, now, Optional.empty());
    first.namespaces.insert(namespace);
    table = new CatalogObject(UUID.randomUUID(), namespace.id(), new TableName("orders"),
        CatalogObject.Kind.TABLE, "v0", new StorageLocation(bucket.id(),
            namespace.prefix().resolve("orders")), false, now, now);
    assertThat(first.objects.insert(table)).isTrue();
  }

  @AfterEach
  void stopServers() {
    if (second != null) {
      second.close();
    }
    first.close();
  }

  @Test
  void theOnlyServerLoadsPointersWithoutAskingPostgresAndSeesItsOwnCommitAtOnce()
      throws InterruptedException {
    first.sole();
    // The first load reads namespace, table and bucket in one query; the next keeps the pointer.
    assertThat(pointer(first)).isEqualTo("v0");
    assertThat(pointer(first)).isEqualTo("v0");
    long statements = first.database.statementsExecuted();
    for (int i = 0; i < 100; i++) {
      assertThat(pointer(first)).isEqualTo("v0");
    }
    assertThat(first.database.statementsExecuted()).as("loads kept in memory").isEqualTo(
        statements);

    assertThat(first.objectRows.swap(
        List.of(Move.of(new Row(table.id()), "v0", "v1")), now)).isTrue();
    assertThat(pointer(first)).as("the commit, loaded right after it was answered")
        .isEqualTo("v1");
    assertThat(first.objectRows.swap(
        List.of(Move.of(new Row(table.id()), "v1", "v2")), now)).isTrue();
    assertThat(pointer(first)).isEqualTo("v2");
  }

  @Test
  void whileACommitIsUnderWayLoadsReadPostgresAndKeepNothingTheyRead() throws Exception {
    first.sole();
    assertThat(pointer(first)).isEqualTo("v0");
    assertThat(pointer(first)).isEqualTo("v0"); // kept
    CountDownLatch swapped = new CountDownLatch(1);
    CountDownLatch mayCommit = new CountDownLatch(1);
    CompletableFuture<Boolean> commit = CompletableFuture.supplyAsync(() ->
        first.database.inTransaction(() -> {
          boolean moved = first.objectRows.swap(
              List.of(Move.of(new Row(table.id()), "v0", "v1")), now);
          swapped.countDown();
          await(mayCommit);
          return moved;
        }));
    assertThat(swapped.await(10, TimeUnit.SECONDS)).isTrue();

    long statements = first.database.statementsExecuted();
    assertThat(pointer(first)).as("not committed yet, read from PostgreSQL").isEqualTo("v0");
    assertThat(first.database.statementsExecuted()).isGreaterThan(statements);

    mayCommit.countDown();
    assertThat(commit.get(10, TimeUnit.SECONDS)).isTrue();
    assertThat(pointer(first)).as("what was read during the commit is not served")
        .isEqualTo("v1");
  }

  @Test
  void aSecondServerEndsTheSoleTenureBeforeItWritesAndEachLoadsTheOthersCommitsAtOnce()
      throws InterruptedException {
    first.sole();
    assertThat(pointer(first)).isEqualTo("v0");
    assertThat(pointer(first)).isEqualTo("v0"); // kept
    second = new CachedServer(settings, CIPHER).listening();

    String expected = "v0";
    for (int i = 1; i <= 20; i++) {
      CachedServer writer = i % 2 == 0 ? first : second;
      CachedServer reader = writer == first ? second : first;
      String next = "v" + i;
      assertThat(writer.objectRows.swap(
          List.of(Move.of(new Row(table.id()), expected, next)), now)).isTrue();
      assertThat(first.invalidations.sole() || second.invalidations.sole())
          .as("neither keeps pointers while both run").isFalse();
      assertThat(pointer(reader)).as("commit %d, loaded through the other server", i)
          .isEqualTo(next);
      expected = next;
    }

    second.close();
    second = null;
    first.sole();
    assertThat(pointer(first)).isEqualTo(expected);
    assertThat(pointer(first)).isEqualTo(expected);
    long statements = first.database.statementsExecuted();
    assertThat(pointer(first)).isEqualTo(expected);
    assertThat(first.database.statementsExecuted()).as("alone again, kept again")
        .isEqualTo(statements);
  }

  @Test
  void aSoleServerWhoseConnectionDiesStopsKeepingPointersBeforeAnotherServerWrites()
      throws InterruptedException {
    first.sole();
    assertThat(pointer(first)).isEqualTo("v0");
    assertThat(pointer(first)).isEqualTo("v0"); // kept
    first.database.dsl().fetch("select pg_terminate_backend(pid) from pg_stat_activity "
        + "where application_name = ? and datname = current_database()",
        CacheInvalidations.APPLICATION);
    second = new CachedServer(settings, CIPHER).listening();

    assertThat(second.objectRows.swap(
        List.of(Move.of(new Row(table.id()), "v0", "v1")), now)).isTrue();
    assertThat(first.invalidations.sole()).as("stopped before the other server's write landed")
        .isFalse();
    assertThat(pointer(first)).isEqualTo("v1");
  }

  @Test
  void aStartingServerEndsTheSessionOfASoleServerThatNoLongerAnswers() throws Exception {
    first.close();
    // What a sole server whose machine died leaves behind until PostgreSQL notices: a session
    // that holds presence exclusively and hears nothing.
    try (Connection session = DriverManager.getConnection(settings.jdbcUrl(), settings.user(),
        settings.password())) {
      assertThat(AdvisoryLocks.execute(session, "select pg_try_advisory_lock(?, ?)",
          AdvisoryLocks.key("replica-presence"))).isTrue();

      first = new CachedServer(settings, CIPHER).listening();

      assertThat(session.isValid(5)).as("the unanswering session was ended").isFalse();
      assertThat(first.objectRows.swap(
          List.of(Move.of(new Row(table.id()), "v0", "v1")), now)).as("and writes go on")
          .isTrue();
      assertThat(pointer(first)).isEqualTo("v1");
    }
  }

  private String pointer(CachedServer server) {
    return server.objects.locate(namespace.orgId(), namespace.name(), table.name())
        .flatMap(Located::object).orElseThrow().metadataLocation();
  }

  private static void await(CountDownLatch latch) {
    try {
      assertThat(latch.await(10, TimeUnit.SECONDS)).isTrue();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }
}
