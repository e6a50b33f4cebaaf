package io.floe.application.port.out.contract;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.floe.application.port.out.MetadataPointers;
import io.floe.domain.CatalogObject;
import io.floe.domain.Namespace;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.FutureTask;
import org.junit.jupiter.api.Test;

/**
 * {@link MetadataPointers}: a pointer moves only from the location the mover expects, so of many
 * racing writers exactly one wins; a swap joins the caller's transaction; while a committer holds
 * an object's lock, nobody else's swap of it can succeed.
 */
public abstract class MetadataPointersContract extends PortContract {
  private MetadataPointers pointers() {
    return ports().pointers();
  }

  private CatalogObject table(String namespace, String metadataLocation) {
    return fixture.object(fixture.namespace(namespace), "t", CatalogObject.Kind.TABLE,
        metadataLocation);
  }

  private String location(CatalogObject object, Namespace ns) {
    return ports().objects().find(fixture.org.id(), ns.name(), object.name()).orElseThrow()
        .metadataLocation();
  }

  @Test
  void pointersMoveOnlyFromTheExpectedLocation() {
    Namespace ns = fixture.namespace("ns");
    CatalogObject table = fixture.object(ns, "t", CatalogObject.Kind.TABLE, "v0");
    assertThat(pointers().swap(table.id(), "v0", "v1", fixture.now.plusSeconds(1))).isTrue();
    assertThat(pointers().swap(table.id(), "v0", "v2", fixture.now.plusSeconds(2))).isFalse();
    CatalogObject read = ports().objects().find(fixture.org.id(), ns.name(), table.name())
        .orElseThrow();
    assertThat(read.metadataLocation()).isEqualTo("v1");
    assertThat(read.updatedAt()).isEqualTo(fixture.now.plusSeconds(1));
  }

  @Test
  void aMissingObjectsPointerDoesNotMove() {
    assertThat(pointers().swap(UUID.randomUUID(), "v0", "v1", fixture.now)).isFalse();
  }

  @Test
  void exactlyOneOfManyRacingWritersWins() throws Exception {
    CatalogObject table = table("race", "base");
    int writers = 8;
    CountDownLatch start = new CountDownLatch(1);
    ExecutorService pool = Executors.newFixedThreadPool(writers);
    try {
      List<Future<Boolean>> results = new ArrayList<>();
      for (int i = 0; i < writers; i++) {
        String next = "next-" + i;
        Callable<Boolean> writer = () -> {
          start.await();
          return ports().unitOfWork().inTransaction(
              () -> pointers().swap(table.id(), "base", next, fixture.now));
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
  void aSwapRollsBackWithItsTransaction() {
    Namespace ns = fixture.namespace("ns");
    CatalogObject table = fixture.object(ns, "t", CatalogObject.Kind.TABLE, "v0");
    assertThatThrownBy(() -> ports().unitOfWork().inTransaction(() -> {
      assertThat(pointers().swap(table.id(), "v0", "v1", fixture.now)).isTrue();
      throw new IllegalStateException("a later swap lost its race");
    })).hasMessageContaining("lost");
    assertThat(location(table, ns)).isEqualTo("v0");
  }

  @Test
  void whileACommitterHoldsTheLockNobodyElseMovesThePointer() {
    Namespace ns = fixture.namespace("locked");
    CatalogObject table = fixture.object(ns, "t", CatalogObject.Kind.TABLE, "v0");
    CatalogObject other = fixture.object(ns, "u", CatalogObject.Kind.TABLE, "v0");
    FutureTask<Boolean> rival = ports().unitOfWork().inTransaction(() -> {
      pointers().lockForCommit(Set.of(table.id(), other.id()));
      FutureTask<Boolean> started = Concurrently.start(() -> ports().unitOfWork().inTransaction(
          () -> pointers().swap(table.id(), "v0", "rival", fixture.now)));
      Concurrently.grace();
      assertThat(pointers().swap(table.id(), "v0", "committer", fixture.now)).isTrue();
      return started;
    });
    assertThat(Concurrently.result(rival)).isFalse();
    assertThat(location(table, ns)).isEqualTo("committer");
  }

  /**
   * However many requests read an object at once (a store may let them share a query), none reads
   * a pointer older than a move acknowledged before its read began.
   */
  @Test
  void noReadMissesAMoveAcknowledgedBeforeItBegan() throws Exception {
    Namespace ns = fixture.namespace("hot");
    CatalogObject table = fixture.object(ns, "t", CatalogObject.Kind.TABLE, "v0");
    int moves = 150;
    java.util.concurrent.atomic.AtomicInteger acknowledged =
        new java.util.concurrent.atomic.AtomicInteger();
    ExecutorService pool = Executors.newFixedThreadPool(9);
    try {
      Future<?> writer = pool.submit(() -> {
        for (int v = 1; v <= moves; v++) {
          assertThat(pointers().swap(table.id(), "v" + (v - 1), "v" + v, fixture.now)).isTrue();
          acknowledged.set(v);
        }
      });
      List<Future<Integer>> readers = new ArrayList<>();
      for (int r = 0; r < 8; r++) {
        readers.add(pool.submit(() -> {
          int stale = 0;
          while (acknowledged.get() < moves) {
            int before = acknowledged.get();
            String read = ports().objects().find(ns.id(), table.name()).orElseThrow()
                .metadataLocation();
            if (Integer.parseInt(read.substring(1)) < before) {
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

  /**
   * A read inside a transaction is the transaction's own, even while others read the same object:
   * it sees the transaction's move, and nobody outside sees that move before it commits (here it
   * never does: the transaction rolls back).
   */
  @Test
  void readsInsideAndOutsideATransactionNeverMix() throws Exception {
    Namespace ns = fixture.namespace("own");
    CatalogObject table = fixture.object(ns, "t", CatalogObject.Kind.TABLE, "v0");
    java.util.concurrent.atomic.AtomicBoolean done =
        new java.util.concurrent.atomic.AtomicBoolean();
    ExecutorService pool = Executors.newFixedThreadPool(4);
    try {
      List<Future<Set<String>>> outside = new ArrayList<>();
      for (int r = 0; r < 4; r++) {
        outside.add(pool.submit(() -> {
          Set<String> seen = new java.util.HashSet<>();
          while (!done.get()) {
            seen.add(ports().objects().find(ns.id(), table.name()).orElseThrow()
                .metadataLocation());
          }
          return seen;
        }));
      }
      Set<String> inside = new java.util.HashSet<>();
      assertThatThrownBy(() -> ports().unitOfWork().inTransaction(() -> {
        assertThat(pointers().swap(table.id(), "v0", "v1", fixture.now)).isTrue();
        for (int i = 0; i < 300; i++) {
          inside.add(ports().objects().find(ns.id(), table.name()).orElseThrow()
              .metadataLocation());
        }
        throw new IllegalStateException("roll back");
      })).hasMessage("roll back");
      done.set(true);
      assertThat(inside).containsExactly("v1");
      for (Future<Set<String>> reader : outside) {
        assertThat(reader.get()).containsExactly("v0");
      }
    } finally {
      done.set(true);
      pool.shutdownNow();
    }
  }
}
