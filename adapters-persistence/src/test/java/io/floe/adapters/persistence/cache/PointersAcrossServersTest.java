package io.floe.adapters.persistence.cache;

import static org.assertj.core.api.Assertions.assertThat;

import io.floe.adapters.persistence.DatabaseSettings;
import io.floe.adapters.persistence.TestDatabases;
import io.floe.adapters.persistence.jooq.Database;
import io.floe.adapters.persistence.jooq.SecretCipher;
import io.floe.application.port.out.CatalogObjectStore.Located;
import io.floe.application.port.out.MetadataPointers.Move;
import io.floe.application.port.out.MetadataPointers.Row;
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
import java.io.IOException;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Every server keeps tables' metadata pointers in memory and loads them without asking
 * PostgreSQL, however many servers share the database; a commit to one table, through any server,
 * keeps every server from serving that table's old pointer from before it commits, and leaves the
 * other tables' pointers in memory.
 */
class PointersAcrossServersTest {
  private static final SecretCipher CIPHER = TestDatabases.cipher();
  private final Instant now = Instant.now().truncatedTo(ChronoUnit.MICROS);
  private DatabaseSettings settings;
  private CachedServer first;
  private CachedServer second;
  private Namespace namespace;
  private CatalogObject table;
  private CatalogObject other;

  @BeforeEach
  void startOneServer() throws InterruptedException {
    settings = TestDatabases.freshDatabase(TestDatabases.embeddedServer());
    first = new CachedServer(settings, CIPHER).listening();
    Org org = new Org(UUID.randomUUID(), new OrgName("org-pointers"), true);
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
    table = newTable("orders", bucket);
    other = newTable("customers", bucket);
  }

  private CatalogObject newTable(String name, BucketConfig bucket) {
    CatalogObject object = new CatalogObject(UUID.randomUUID(), namespace.id(),
        new TableName(name), CatalogObject.Kind.TABLE, "v0", new StorageLocation(bucket.id(),
            namespace.prefix().resolve(name)), false, now, now);
    assertThat(first.objects.insert(object)).isTrue();
    return object;
  }

  @AfterEach
  void stopServers() {
    if (second != null) {
      second.close();
    }
    first.close();
  }

  @Test
  void aServerLoadsPointersWithoutAskingPostgresAndSeesItsOwnCommitAtOnce()
      throws InterruptedException {
    first.servingPointers();
    // The first load reads namespace, table and bucket in one query; the next keeps the pointer.
    assertThat(pointer(first, table)).isEqualTo("v0");
    assertThat(pointer(first, table)).isEqualTo("v0");
    assertLoadsFromMemory(first, table, "v0");

    assertThat(moves(first, "v0", "v1")).isTrue();
    assertThat(pointer(first, table)).as("the commit, loaded right after it was answered")
        .isEqualTo("v1");
    assertThat(moves(first, "v1", "v2")).isTrue();
    assertThat(pointer(first, table)).isEqualTo("v2");
    assertLoadsFromMemory(first, table, "v2");
  }

  @Test
  void whileACommitIsUnderWayItsTableIsReadFromPostgresAndOtherTablesStayInMemory()
      throws Exception {
    first.servingPointers();
    second = new CachedServer(settings, CIPHER).listening().servingPointers();
    for (CachedServer server : List.of(first, second)) {
      for (CatalogObject object : List.of(table, other)) {
        pointer(server, object);
        assertLoadsFromMemory(server, object, "v0");
      }
    }
    CountDownLatch swapped = new CountDownLatch(1);
    CountDownLatch mayCommit = new CountDownLatch(1);
    CompletableFuture<Boolean> commit = CompletableFuture.supplyAsync(() ->
        first.database.inTransaction(() -> {
          boolean moved = moves(first, "v0", "v1");
          swapped.countDown();
          await(mayCommit);
          return moved;
        }));
    assertThat(swapped.await(10, TimeUnit.SECONDS)).isTrue();

    for (CachedServer server : List.of(first, second)) {
      long statements = server.database.statementsExecuted();
      assertThat(pointer(server, table)).as("not committed yet, read from PostgreSQL")
          .isEqualTo("v0");
      assertThat(server.database.statementsExecuted()).isGreaterThan(statements);
      assertLoadsFromMemory(server, other, "v0");
    }

    mayCommit.countDown();
    assertThat(commit.get(10, TimeUnit.SECONDS)).isTrue();
    assertThat(pointer(first, table)).isEqualTo("v1");
    assertThat(pointer(second, table)).as("what was read during the commit is not served")
        .isEqualTo("v1");
    CachedServer.await(() -> pointerFromMemory(second, table), "the table kept again");
    assertLoadsFromMemory(second, table, "v1");
    assertLoadsFromMemory(second, other, "v0");
  }

  @Test
  void aCommitThroughOneServerIsLoadedThroughTheOtherAtOnceAndBothKeepPointers()
      throws InterruptedException {
    first.servingPointers();
    second = new CachedServer(settings, CIPHER).listening().servingPointers();
    String expected = "v0";
    for (int i = 1; i <= 20; i++) {
      CachedServer writer = i % 2 == 0 ? first : second;
      CachedServer reader = writer == first ? second : first;
      // The reader keeps the pointer before the commit: the commit must void it there.
      assertThat(pointer(reader, table)).isEqualTo(expected);
      assertThat(pointer(reader, other)).isEqualTo("v0");
      String next = "v" + i;
      assertThat(moves(writer, expected, next)).isTrue();
      assertThat(pointer(reader, table)).as("commit %d, loaded through the other server", i)
          .isEqualTo(next);
      assertLoadsFromMemory(reader, other, "v0");
      expected = next;
    }
    CachedServer.await(() -> pointerFromMemory(first, table) && pointerFromMemory(second, table),
        "both servers keep the table's pointer again");
  }

  @Test
  void loadsThroughEitherServerNeverGoBackBehindACommitAcknowledgedOrSeen() throws Exception {
    first.servingPointers();
    second = new CachedServer(settings, CIPHER).listening().servingPointers();
    AtomicInteger acknowledged = new AtomicInteger();
    AtomicBoolean writing = new AtomicBoolean(true);
    ExecutorService threads = Executors.newFixedThreadPool(5);
    try {
      Future<?> writer = threads.submit(() -> {
        for (int i = 1; i <= 60; i++) {
          CachedServer through = i % 3 == 0 ? second : first;
          assertThat(moves(through, "v" + (i - 1), "v" + i)).isTrue();
          acknowledged.set(i);
        }
        writing.set(false);
        return null;
      });
      AtomicInteger seen = new AtomicInteger();
      List<Future<Integer>> readers = new ArrayList<>();
      for (int r = 0; r < 4; r++) {
        CachedServer through = r % 2 == 0 ? first : second;
        readers.add(threads.submit(() -> {
          int loads = 0;
          while (writing.get()) {
            int floor = Math.max(acknowledged.get(), seen.get());
            int loaded = Integer.parseInt(pointer(through, table).substring(1));
            assertThat(loaded).as("a load never returns a version older than one acknowledged "
                + "or seen by another load before it began").isGreaterThanOrEqualTo(floor);
            seen.accumulateAndGet(loaded, Math::max);
            loads++;
          }
          return loads;
        }));
      }
      writer.get(120, TimeUnit.SECONDS);
      for (Future<Integer> reader : readers) {
        assertThat(reader.get(30, TimeUnit.SECONDS)).isPositive();
      }
    } finally {
      threads.shutdownNow();
    }
  }

  @Test
  void aServerWhoseListeningSessionIsFrozenNeverServesAPointerOlderThanAnAcknowledgedCommit()
      throws Exception {
    first.servingPointers();
    second = new CachedServer(settings, CIPHER).listening().servingPointers();
    assertThat(pointer(second, table)).isEqualTo("v0");
    assertLoadsFromMemory(second, table, "v0");
    int frozen = second.invalidations.listeningProcess();
    signal("STOP", frozen);
    try {
      // Committed while the second server hears nothing: the write waits for its heartbeat to
      // lapse, since it cannot answer.
      assertThat(moves(first, "v0", "v1")).isTrue();
      for (int i = 0; i < 20; i++) {
        assertThat(pointer(second, table)).as("loaded through the frozen server").isEqualTo("v1");
      }
      assertThat(moves(first, "v1", "v2")).isTrue();
      assertThat(pointer(second, table)).isEqualTo("v2");
    } finally {
      signal("CONT", frozen);
    }
    // Thawed, it hears the notices it missed (or joins again on a new session) before it serves
    // from memory again, and never the pointers it kept before the freeze.
    long until = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
    while (System.nanoTime() < until) {
      assertThat(pointer(second, table)).isEqualTo("v2");
    }
    CachedServer.await(() -> pointerFromMemory(second, table), "kept again after the thaw");
    assertThat(moves(first, "v2", "v3")).isTrue();
    assertThat(pointer(second, table)).isEqualTo("v3");
  }

  @Test
  void aServerWhoseListeningSessionEndsServesFromPostgresUntilItHasJoinedAgain()
      throws InterruptedException {
    first.servingPointers();
    second = new CachedServer(settings, CIPHER).listening().servingPointers();
    assertThat(pointer(second, table)).isEqualTo("v0");
    second.database.dsl().execute("select pg_terminate_backend(?)",
        second.invalidations.listeningProcess());
    assertThat(moves(first, "v0", "v1")).isTrue();
    assertThat(pointer(second, table)).isEqualTo("v1");
    second.servingPointers();
    assertThat(pointer(second, table)).isEqualTo("v1");
    assertThat(moves(first, "v1", "v2")).isTrue();
    assertThat(pointer(second, table)).isEqualTo("v2");
  }

  @Test
  void aWriteThatRollsBackHoldsTheTableOnOtherServersOnlyUntilPostgresSaysItEnded()
      throws InterruptedException {
    first.servingPointers();
    second = new CachedServer(settings, CIPHER).listening().servingPointers();
    assertThat(pointer(second, table)).isEqualTo("v0");
    // A compare-and-swap that finds another pointer changes nothing and announces nothing.
    assertThat(moves(first, "not-the-pointer", "v1")).isFalse();
    assertThat(pointer(second, table)).isEqualTo("v0");
    CachedServer.await(() -> pointerFromMemory(second, table), "the table kept again");
  }

  @Test
  void aServerThatJoinsWhileAWriteIsUnderWayServesNothingUntilThatWriteHasEnded()
      throws Exception {
    first.servingPointers();
    CountDownLatch swapped = new CountDownLatch(1);
    CountDownLatch mayCommit = new CountDownLatch(1);
    CompletableFuture<Boolean> commit = CompletableFuture.supplyAsync(() ->
        first.database.inTransaction(() -> {
          boolean moved = moves(first, "v0", "v1");
          swapped.countDown();
          await(mayCommit);
          return moved;
        }));
    assertThat(swapped.await(10, TimeUnit.SECONDS)).isTrue();
    // This write was fenced before the new server listened: it does not ask the new server.
    second = new CachedServer(settings, CIPHER).listening();
    assertThat(pointer(second, table)).isEqualTo("v0");
    // Real time on purpose: what must not happen is given half a second to (wrongly) happen.
    Thread.sleep(500);
    assertThat(second.invalidations.pointersServed()).as("not before the write has ended")
        .isFalse();
    mayCommit.countDown();
    assertThat(commit.get(10, TimeUnit.SECONDS)).isTrue();
    second.servingPointers();
    assertThat(pointer(second, table)).isEqualTo("v1");
    assertLoadsFromMemory(second, table, "v1");
  }

  /**
   * A hundred loads of {@code object} in a row through {@code server}, none of which asks
   * PostgreSQL. A server whose listening session missed a beat (a starved machine can delay it)
   * rightly reads PostgreSQL until the next beat, so a round that asked is tried again, within a
   * deadline; every load answers {@code expected} either way.
   */
  private void assertLoadsFromMemory(CachedServer server, CatalogObject object, String expected) {
    assertThat(pointer(server, object)).isEqualTo(expected);
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(15);
    while (true) {
      long statements = server.database.statementsExecuted();
      for (int i = 0; i < 100; i++) {
        assertThat(pointer(server, object)).isEqualTo(expected);
      }
      long asked = server.database.statementsExecuted() - statements;
      if (asked == 0 || System.nanoTime() - deadline > 0) {
        assertThat(asked).as("statements of 100 loads of %s kept in memory",
            object.name().value()).isZero();
        return;
      }
    }
  }

  /** Whether a load of {@code object} through {@code server} asks PostgreSQL nothing now. */
  private boolean pointerFromMemory(CachedServer server, CatalogObject object) {
    pointer(server, object);
    long statements = server.database.statementsExecuted();
    pointer(server, object);
    return server.database.statementsExecuted() == statements;
  }

  private String pointer(CachedServer server, CatalogObject object) {
    return server.objects.locate(namespace.orgId(), namespace.name(), object.name())
        .flatMap(Located::object).orElseThrow().metadataLocation();
  }

  /** Sends {@code signal} to a PostgreSQL process of the embedded server (run by this user). */
  private static void signal(String signal, int pid) throws IOException, InterruptedException {
    Process kill = new ProcessBuilder("kill", "-" + signal, String.valueOf(pid))
        .inheritIO().start();
    assertThat(kill.waitFor()).as("kill -%s %d", signal, pid).isZero();
  }

  private static void await(CountDownLatch latch) {
    try {
      assertThat(latch.await(10, TimeUnit.SECONDS)).isTrue();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }

  /** Moves the table's pointer through {@code server}'s rows from {@code expected} to {@code next}. */
  private boolean moves(CachedServer server, String expected, String next) {
    return server.objectRows.swap(List.of(Move.of(new Row(table.id()), expected, next)), now);
  }
}
