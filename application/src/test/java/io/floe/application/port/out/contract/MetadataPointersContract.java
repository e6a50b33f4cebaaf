package io.floe.application.port.out.contract;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.floe.application.port.out.MetadataPointers;
import io.floe.application.port.out.MetadataPointers.Key;
import io.floe.application.port.out.MetadataPointers.Move;
import io.floe.application.port.out.UnitOfWork;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.FutureTask;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * {@link MetadataPointers}, on every store of pointers: a plain namespace's catalog rows (in memory
 * and on PostgreSQL) and a repo's branch (Icechunk, in adapters-icechunk). A pointer moves only
 * from where its mover expects it, so of many racing writers exactly one wins; one commit's
 * pointers move together or not at all; while a committer holds their locks, no other writer in
 * Floe moves them; a read never misses a move acknowledged before it began.
 */
public abstract class MetadataPointersContract {
  /** Where one test's tables live in the store under test: a namespace, a branch. */
  protected interface Home {
    /** A table here whose pointer is {@code pointer}. */
    Key table(String name, String pointer);

    /** The key a table of that name would have here; there is none yet. */
    Key absent(String name);
  }

  /** The store under test. */
  protected abstract MetadataPointers pointers();

  /** The transactions a swap joins or takes its locks in. */
  protected abstract UnitOfWork unitOfWork();

  /** A new place for one test's tables. */
  protected abstract Home newHome();

  /** Whether the store declares a table by a move without an expected pointer. */
  protected abstract boolean declaresByMove();

  protected final Instant now = Instant.now().truncatedTo(ChronoUnit.MICROS);

  private boolean swap(Key key, String expected, String next) {
    return pointers().swap(List.of(Move.of(key, expected, next)), now);
  }

  private String current(Key key) {
    return pointers().current(key).orElseThrow();
  }

  /**
   * Where a reader finds the pointer now: the store's own {@link MetadataPointers#current}, or
   * the path requests read it by, where that is another (catalog rows: the catalog's lookup).
   */
  protected String read(Key key) {
    return current(key);
  }

  @Test
  void aPointerMovesOnlyFromTheExpectedLocation() {
    Key table = newHome().table("t", "v0");
    assertThat(swap(table, "v0", "v1")).isTrue();
    assertThat(swap(table, "v0", "v2")).isFalse();
    assertThat(current(table)).isEqualTo("v1");
  }

  @Test
  void aMissingTablesPointerDoesNotMove() {
    Home home = newHome();
    home.table("t", "v0");
    Key missing = home.absent("gone");
    assertThat(swap(missing, "v0", "v1")).isFalse();
    assertThat(pointers().current(missing)).isEmpty();
  }

  @Test
  void oneCommitsPointersMoveTogetherOrNotAtAll() {
    Home home = newHome();
    Key a = home.table("a", "a0");
    Key b = home.table("b", "b0");
    assertThat(pointers().swap(List.of(Move.of(a, "a0", "a1"), Move.of(b, "stale", "b1")), now))
        .isFalse();
    assertThat(current(a)).isEqualTo("a0");
    assertThat(current(b)).isEqualTo("b0");

    assertThat(pointers().swap(List.of(Move.of(a, "a0", "a1"), Move.of(b, "b0", "b1")), now))
        .isTrue();
    assertThat(current(a)).isEqualTo("a1");
    assertThat(current(b)).isEqualTo("b1");
  }

  @Test
  void exactlyOneOfManyRacingWritersWins() throws Exception {
    Key table = newHome().table("race", "base");
    int writers = 8;
    CountDownLatch start = new CountDownLatch(1);
    ExecutorService pool = Executors.newFixedThreadPool(writers);
    try {
      List<Future<Boolean>> results = new ArrayList<>();
      for (int i = 0; i < writers; i++) {
        String next = "next-" + i;
        results.add(pool.submit(() -> {
          start.await();
          return unitOfWork().inTransaction(() -> swap(table, "base", next));
        }));
      }
      start.countDown();
      int winners = 0;
      for (Future<Boolean> result : results) {
        winners += result.get() ? 1 : 0;
      }
      assertThat(winners).isEqualTo(1);
      assertThat(current(table)).startsWith("next-");
    } finally {
      pool.shutdownNow();
    }
  }

  @Test
  void whileACommitterHoldsTheLocksNoOtherWriterMovesThePointer() {
    Home home = newHome();
    Key table = home.table("t", "v0");
    Key other = home.table("u", "v0");
    FutureTask<Boolean> rival = unitOfWork().inTransaction(() -> {
      pointers().lockForCommit(List.of(table, other));
      FutureTask<Boolean> started = Concurrently.start(() -> unitOfWork().inTransaction(
          () -> swap(table, "v0", "rival")));
      Concurrently.grace();
      assertThat(swap(table, "v0", "committer")).isTrue();
      return started;
    });
    assertThat(Concurrently.result(rival)).isFalse();
    assertThat(current(table)).isEqualTo("committer");
  }

  @Test
  void aMoveWithoutAnExpectedPointerDeclaresATableThatIsNotThereYet() {
    assumeTrue(declaresByMove(), "this store's tables come into being with their entries");
    Home home = newHome();
    Key existing = home.table("t", "v0");
    Key fresh = home.absent("fresh");
    assertThat(pointers().swap(List.of(new Move(fresh, Optional.empty(), "f0")), now)).isTrue();
    assertThat(current(fresh)).isEqualTo("f0");
    assertThat(current(existing)).isEqualTo("v0");
    assertThat(pointers().swap(List.of(new Move(fresh, Optional.empty(), "f1")), now)).isFalse();
    assertThat(current(fresh)).isEqualTo("f0");
  }

  /** However many read a pointer at once, none reads one older than a move acknowledged before. */
  @Test
  void noReadMissesAMoveAcknowledgedBeforeItBegan() throws Exception {
    Key table = newHome().table("hot", "v0");
    int moves = 40;
    AtomicInteger acknowledged = new AtomicInteger();
    ExecutorService pool = Executors.newFixedThreadPool(5);
    try {
      Future<?> writer = pool.submit(() -> {
        for (int v = 1; v <= moves; v++) {
          assertThat(swap(table, "v" + (v - 1), "v" + v)).isTrue();
          acknowledged.set(v);
        }
      });
      List<Future<Integer>> readers = new ArrayList<>();
      for (int r = 0; r < 4; r++) {
        readers.add(pool.submit(() -> {
          int stale = 0;
          while (acknowledged.get() < moves) {
            int before = acknowledged.get();
            if (Integer.parseInt(read(table).substring(1)) < before) {
              stale++;
            }
          }
          return stale;
        }));
      }
      writer.get();
      for (Future<Integer> reader : readers) {
        assertThat(reader.get()).as("reads older than an acknowledged move").isZero();
      }
    } finally {
      pool.shutdownNow();
    }
  }
}
