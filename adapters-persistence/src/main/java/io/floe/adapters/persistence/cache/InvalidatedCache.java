package io.floe.adapters.persistence.cache;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import java.time.Duration;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.BooleanSupplier;
import java.util.function.Function;

/**
 * A bounded cache of rows read from PostgreSQL that forgets everything it holds as soon as one of
 * the tables it reads from changes ({@link CacheInvalidations} says when), and that is not used at
 * all while those announcements cannot be trusted to arrive.
 *
 * <p>Each entry is stamped with the generation of the cache when its read began; forgetting
 * everything starts a new generation. So a read that raced with a change, began before it and
 * stored its answer after the cache forgot, is never served: its stamp is old.
 */
public final class InvalidatedCache<K, V> {
  /** How long an entry lives even if no change is announced: a bound on any missed one. */
  static final Duration LIFETIME = Duration.ofMinutes(5);

  private record Stamped<V>(long generation, V value) {}

  private final String name;
  private final Set<String> tables;
  private final BooleanSupplier trusted;
  private final Cache<K, Stamped<V>> entries;
  private final AtomicLong generation = new AtomicLong();

  InvalidatedCache(String name, long maximumSize, Set<String> tables, BooleanSupplier trusted) {
    this.name = name;
    this.tables = Set.copyOf(tables);
    this.trusted = trusted;
    this.entries = Caffeine.newBuilder()
        .maximumSize(maximumSize)
        .expireAfterWrite(LIFETIME)
        .recordStats()
        .build();
  }

  /** What the cache is called in metrics. */
  public String name() {
    return name;
  }

  /** The Caffeine cache underneath, for its statistics. */
  public Cache<?, ?> statistics() {
    return entries;
  }

  Set<String> tables() {
    return tables;
  }

  /** The value for {@code key}, read with {@code load} unless cached; every value is cached. */
  public V get(K key, Function<? super K, ? extends V> load) {
    return find(key, missing -> Optional.of(load.apply(missing))).orElseThrow();
  }

  /** Like {@link #get}, for lookups that may find nothing: only what was found is cached. */
  public Optional<V> find(K key, Function<? super K, Optional<V>> load) {
    if (!trusted.getAsBoolean()) {
      return load.apply(key);
    }
    long stamp = generation.get();
    Stamped<V> cached = entries.getIfPresent(key);
    if (cached != null && cached.generation() == stamp) {
      return Optional.of(cached.value());
    }
    Optional<V> value = load.apply(key);
    value.ifPresent(found -> entries.put(key, new Stamped<>(stamp, found)));
    return value;
  }

  /** Forgets every entry, and every read still under way. */
  void invalidateAll() {
    generation.incrementAndGet();
    entries.invalidateAll();
  }
}
