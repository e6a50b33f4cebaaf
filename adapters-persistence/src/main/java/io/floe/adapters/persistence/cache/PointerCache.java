package io.floe.adapters.persistence.cache;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import io.floe.adapters.persistence.jooq.CatalogObjectWrites;
import io.floe.adapters.persistence.jooq.Database;
import io.floe.domain.CatalogObject;
import io.floe.domain.TableName;
import java.time.Duration;
import java.util.Collection;
import java.util.HashSet;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicLongArray;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;

/**
 * Tables and views by namespace and name, with their metadata pointers, kept in memory so that a
 * load reads nothing from PostgreSQL. What may be served is decided per object, by three rules
 * ({@link PointerWrites} says why they make loads linearizable across replicas):
 * <ol>
 *   <li><b>Held.</b> An object that a write under way anywhere is changing is never served from
 *   memory: every load of it reads PostgreSQL until the write's transaction has ended. This
 *   server's own writes hold it from before their statement is sent ({@link #hold}); another
 *   server's, from the moment this server hears that it is writing ({@code W}), which is before
 *   that write commits.</li>
 *   <li><b>Forgotten.</b> Each object's entry carries a stamp taken before PostgreSQL was read;
 *   holding, releasing or hearing of a change to the object forgets every stamp before it, so a
 *   read that raced with a write is never served. Changes are counted per stripe of object ids,
 *   so a commit to one table forgets that table (and the few that share its stripe), not every
 *   table.</li>
 *   <li><b>Usable.</b> Nothing is served while this server's announcements cannot be trusted to
 *   arrive ({@link CacheInvalidations#trusted}) or before it has joined the replicas that keep
 *   pointers ({@link ReplicaPresence}); everything kept before is void when it starts or stops
 *   being usable.</li>
 * </ol>
 * Only what exists is kept. Inside a transaction (which must read its own writes and the rows it
 * locked), every read goes to PostgreSQL.
 */
public final class PointerCache {
  /** A bound on how long a change made by hand with announcements switched off goes unseen. */
  static final Duration LIFETIME = Duration.ofSeconds(10);
  private static final int STRIPES = 4096;

  private record Key(UUID namespaceId, String name) {}

  /** An object read from PostgreSQL, with the epoch and change count taken before the read. */
  private record Kept(long epoch, long stamp, CatalogObject object) {}

  private final Database database;
  private final BooleanSupplier usable;
  private final Cache<Key, Kept> kept = Caffeine.newBuilder()
      .maximumSize(100_000)
      .expireAfterWrite(LIFETIME)
      .recordStats()
      .build();
  /** Counts every forgetting; a stripe remembers the count of its latest. */
  private final AtomicLong changes = new AtomicLong();
  private final AtomicLongArray forgottenAt = new AtomicLongArray(STRIPES);
  /** Bumped when everything kept is void. */
  private final AtomicLong epoch = new AtomicLong();
  /** Objects held, and by which transactions (PostgreSQL transaction ids). */
  private final Map<UUID, Set<Long>> holders = new ConcurrentHashMap<>();
  /** Transactions holding objects, what they hold and since when (System.nanoTime()). */
  private final Map<Long, Holding> holdings = new ConcurrentHashMap<>();

  /** {@code own}: a transaction of this server, released by this server when it ends. */
  private record Holding(Set<UUID> objects, long since, boolean own) {}

  /** {@code usable}: whether kept pointers may be served now. */
  PointerCache(Database database, BooleanSupplier usable) {
    this.database = database;
    this.usable = usable;
  }

  /** The object, kept or read with {@code read}. */
  public Optional<CatalogObject> find(UUID namespaceId, TableName name,
      Supplier<Optional<CatalogObject>> read) {
    if (database.transactionOpen() || !usable.getAsBoolean()) {
      return read.get();
    }
    // Epoch and count first: a void or a change that begins after them is seen by servable().
    long epochBefore = epoch.get();
    long stamp = changes.get();
    Key key = new Key(namespaceId, name.value());
    Kept found = kept.getIfPresent(key);
    if (found != null && servable(found)) {
      return Optional.of(found.object());
    }
    Optional<CatalogObject> object = read.get();
    // Kept with what was taken before the read: if the object was held or changed since, the
    // entry is never served.
    object.ifPresent(it -> {
      Kept read1 = new Kept(epochBefore, stamp, it);
      if (servable(read1)) {
        kept.put(key, read1);
      }
    });
    return object;
  }

  private boolean servable(Kept entry) {
    UUID id = entry.object().id();
    return entry.epoch() == epoch.get()
        && forgottenAt.get(stripe(id)) <= entry.stamp()
        && !holders.containsKey(id);
  }

  /**
   * {@code transaction} (of this server if {@code own}) is about to change {@code objects}: none
   * of them is served from memory until {@link #release} of that transaction.
   */
  void hold(long transaction, Collection<UUID> objects, boolean own) {
    Holding holding = holdings.computeIfAbsent(transaction,
        t -> new Holding(ConcurrentHashMap.newKeySet(), System.nanoTime(), own));
    for (UUID object : objects) {
      if (holding.objects().add(object)) {
        holders.compute(object, (id, by) -> {
          Set<Long> transactions = by == null ? new HashSet<>() : by;
          transactions.add(transaction);
          return transactions;
        });
      }
      forget(object);
    }
  }

  /** {@code transaction} has ended: what it held may be served again once read anew. */
  void release(long transaction) {
    Holding holding = holdings.remove(transaction);
    if (holding == null) {
      return;
    }
    for (UUID object : holding.objects()) {
      holders.computeIfPresent(object, (id, by) -> {
        by.remove(transaction);
        return by.isEmpty() ? null : by;
      });
      forget(object);
    }
  }

  /** Other servers' transactions that have held objects since before {@code nanoTime}. */
  Set<Long> othersHoldingSince(long nanoTime) {
    Set<Long> old = new HashSet<>();
    holdings.forEach((transaction, holding) -> {
      if (!holding.own() && holding.since() - nanoTime < 0) {
        old.add(transaction);
      }
    });
    return old;
  }

  /** The object changed: what was read of it before is never served. */
  void forget(UUID object) {
    long count = changes.incrementAndGet();
    forgottenAt.accumulateAndGet(stripe(object), count, Math::max);
  }

  /** Everything kept is void: this server starts serving pointers, or everything changed. */
  void voidKept() {
    epoch.incrementAndGet();
    kept.invalidateAll();
  }

  /**
   * Drops every hold of another server's transactions: the listening connection that heard them
   * is gone, and with it the announcements that would release them. (A new connection serves
   * nothing until every write it was not told of has ended: {@link ReplicaPresence}.)
   */
  void dropOthersHolds() {
    holdings.forEach((transaction, holding) -> {
      if (!holding.own()) {
        release(transaction);
      }
    });
  }

  /** The cache underneath, for its statistics. */
  public Cache<?, ?> statistics() {
    return kept;
  }

  private static int stripe(UUID object) {
    long mixed = object.getMostSignificantBits() ^ object.getLeastSignificantBits();
    return (int) ((mixed ^ (mixed >>> 32)) & (STRIPES - 1));
  }
}
