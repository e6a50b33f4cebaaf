package io.floe.application.port.out.contract;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.floe.application.port.out.MetadataPointers;
import io.floe.application.port.out.MetadataPointers.Key;
import io.floe.application.port.out.MetadataPointers.Move;
import io.floe.application.port.out.MetadataPointers.Row;
import io.floe.application.port.out.UnitOfWork;
import io.floe.domain.CatalogObject;
import io.floe.domain.Namespace;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * {@link MetadataPointers} on a plain namespace's catalog rows, beyond what every store keeps: a
 * row records when its pointer moved; a swap joins the caller's transaction and rolls back with
 * it; the catalog's reads of a table ({@code CatalogObjectStore.find}, which the contract's
 * stale-read case reads through) never mix a transaction's own moves with others'.
 */
public abstract class CatalogRowPointersContract extends MetadataPointersContract {
  /** The org this test works in, with its default bucket. */
  protected OrgFixture fixture;
  /** The rows the test's homes made, by id. */
  private final Map<UUID, CatalogObject> rows = new ConcurrentHashMap<>();

  /** The backend under test; the same for every test of a class. */
  protected abstract PersistencePorts ports();

  @BeforeEach
  void newOrg() {
    fixture = new OrgFixture(ports());
  }

  /** A request reads a table's pointer through the catalog's lookup (shared, maybe cached). */
  @Override
  protected String read(Key key) {
    CatalogObject row = rows.get(((Row) key).objectId());
    return ports().objects().find(row.namespaceId(), row.name()).orElseThrow()
        .metadataLocation();
  }

  @Override
  protected MetadataPointers pointers() {
    return ports().pointers();
  }

  @Override
  protected UnitOfWork unitOfWork() {
    return ports().unitOfWork();
  }

  @Override
  protected boolean declaresByMove() {
    return false;
  }

  @Override
  protected Home newHome() {
    Namespace ns = fixture.namespace("ns" + UUID.randomUUID().toString().substring(0, 8));
    return new Home() {
      @Override
      public Key table(String name, String pointer) {
        CatalogObject object = fixture.object(ns, name, CatalogObject.Kind.TABLE, pointer);
        rows.put(object.id(), object);
        return new Row(object.id());
      }

      @Override
      public Key absent(String name) {
        return new Row(UUID.randomUUID());
      }
    };
  }

  private boolean swap(CatalogObject object, String expected, String next,
      java.time.Instant when) {
    return pointers().swap(List.of(Move.of(new Row(object.id()), expected, next)), when);
  }

  private String location(CatalogObject object, Namespace ns) {
    return ports().objects().find(fixture.org.id(), ns.name(), object.name()).orElseThrow()
        .metadataLocation();
  }

  @Test
  void aMovedRowRecordsWhenItMoved() {
    Namespace ns = fixture.namespace("ns");
    CatalogObject table = fixture.object(ns, "t", CatalogObject.Kind.TABLE, "v0");
    assertThat(swap(table, "v0", "v1", fixture.now.plusSeconds(1))).isTrue();
    assertThat(swap(table, "v0", "v2", fixture.now.plusSeconds(2))).isFalse();
    CatalogObject read = ports().objects().find(fixture.org.id(), ns.name(), table.name())
        .orElseThrow();
    assertThat(read.metadataLocation()).isEqualTo("v1");
    assertThat(read.updatedAt()).isEqualTo(fixture.now.plusSeconds(1));
  }

  @Test
  void aSwapRollsBackWithItsTransaction() {
    Namespace ns = fixture.namespace("ns");
    CatalogObject table = fixture.object(ns, "t", CatalogObject.Kind.TABLE, "v0");
    assertThatThrownBy(() -> ports().unitOfWork().inTransaction(() -> {
      assertThat(swap(table, "v0", "v1", fixture.now)).isTrue();
      throw new IllegalStateException("a later swap lost its race");
    })).hasMessageContaining("lost");
    assertThat(location(table, ns)).isEqualTo("v0");
  }

  @Test
  void aRowIsNeverDeclaredByAMove() {
    assertThatThrownBy(() -> pointers().swap(List.of(new Move(new Row(UUID.randomUUID()),
        java.util.Optional.empty(), "v0")), fixture.now))
        .isInstanceOf(IllegalArgumentException.class);
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
          // At least one read each, even by a reader the pool starts only after the rollback.
          do {
            seen.add(ports().objects().find(ns.id(), table.name()).orElseThrow()
                .metadataLocation());
          } while (!done.get());
          return seen;
        }));
      }
      Set<String> inside = new java.util.HashSet<>();
      assertThatThrownBy(() -> ports().unitOfWork().inTransaction(() -> {
        assertThat(swap(table, "v0", "v1", fixture.now)).isTrue();
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
