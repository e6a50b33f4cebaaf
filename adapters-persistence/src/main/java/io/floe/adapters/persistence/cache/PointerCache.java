package io.floe.adapters.persistence.cache;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import io.floe.adapters.persistence.jooq.CatalogObjectWrites;
import io.floe.adapters.persistence.jooq.Database;
import io.floe.domain.CatalogObject;
import io.floe.domain.TableName;
import java.time.Duration;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Supplier;

/**
 * Tables and views by namespace and name, with their metadata pointers, kept in memory while this
 * server is the only one on its database ({@link SoleReplica}): then a load reads nothing from
 * PostgreSQL. Every write to those rows comes from this server and passes through
 * {@link #beforeWrite} inside its transaction. From then until the transaction has ended, nothing
 * kept is served and nothing read is kept; when it ends, everything kept before is void. So a load
 * that begins after a commit was answered sees that commit, and a load never sees a pointer that a
 * load before it saw replaced.
 *
 * <p>Only what exists is kept. Outside the sole server's lifetime, and inside a transaction (which
 * must read its own writes and the rows it locked), every read goes to PostgreSQL.
 */
public final class PointerCache implements CatalogObjectWrites {
  /** A bound on how long a change made by hand in the database goes unseen. */
  static final Duration LIFETIME = Duration.ofSeconds(10);

  private record Key(UUID namespaceId, String name) {}

  private record Kept(long generation, CatalogObject object) {}

  private final Database database;
  private final SoleReplica replicas;
  private final Cache<Key, Kept> kept = Caffeine.newBuilder()
      .maximumSize(100_000)
      .expireAfterWrite(LIFETIME)
      .recordStats()
      .build();
  /** Bumped when a write begins and when it ends: what was kept before is void. */
  private final AtomicLong generation = new AtomicLong();
  private final AtomicInteger writesUnderWay = new AtomicInteger();

  PointerCache(Database database, SoleReplica replicas) {
    this.database = database;
    this.replicas = replicas;
  }

  /** The object, kept or read with {@code read}. */
  public Optional<CatalogObject> find(UUID namespaceId, TableName name,
      Supplier<Optional<CatalogObject>> read) {
    // Generation first, then whether this server is the only one, then writes: a void or a
    // write that began after the first read is seen by a later one; one before it, by either.
    long stamp = generation.get();
    if (!replicas.isSole() || database.transactionOpen() || writesUnderWay.get() > 0) {
      return read.get();
    }
    Key key = new Key(namespaceId, name.value());
    Kept found = kept.getIfPresent(key);
    if (found != null && found.generation() == stamp) {
      return Optional.of(found.object());
    }
    Optional<CatalogObject> object = read.get();
    // Kept with the stamp taken before the read: if a write began since, it is never served.
    object.ifPresent(it -> kept.put(key, new Kept(stamp, it)));
    return object;
  }

  /** The cache underneath, for its statistics. */
  public Cache<?, ?> statistics() {
    return kept;
  }

  /**
   * Inside the transaction of a write to a table or view's row, before the write is sent: fences
   * the write against another server's pointers, and stops serving or keeping pointers until the
   * transaction has ended.
   */
  @Override
  public void beforeWrite() {
    replicas.fenceWrite(database.dsl());
    // What undoes the count is registered before the count is taken, so it is never left up.
    database.whenTransactionEnds(() -> {
      generation.incrementAndGet();
      writesUnderWay.decrementAndGet();
    });
    writesUnderWay.incrementAndGet();
    generation.incrementAndGet();
  }

  /** Everything kept is void: this server started or stopped being the only one. */
  void voidAll() {
    generation.incrementAndGet();
    kept.invalidateAll();
  }
}
