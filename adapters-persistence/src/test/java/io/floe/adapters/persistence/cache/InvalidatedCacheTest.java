package io.floe.adapters.persistence.cache;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Optional;
import java.util.Set;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/** The rules every cache of rows follows, whatever it caches. */
class InvalidatedCacheTest {
  private final AtomicBoolean trusted = new AtomicBoolean(true);
  private final InvalidatedCache<String, String> cache =
      new InvalidatedCache<>("test", 100, Set.of("rows"), trusted::get);
  private final AtomicInteger loads = new AtomicInteger();

  private String load(String key) {
    return key + "#" + loads.incrementAndGet();
  }

  @Test
  void aValueIsReadOnceAndServedUntilItsTableChanges() {
    assertThat(cache.get("a", this::load)).isEqualTo("a#1");
    assertThat(cache.get("a", this::load)).isEqualTo("a#1");
    cache.invalidateAll();
    assertThat(cache.get("a", this::load)).isEqualTo("a#2");
  }

  @Test
  void aReadThatRacedWithAChangeIsNeverServed() {
    // The change lands while the read is under way: what the read saw may predate it.
    String raced = cache.get("a", key -> {
      String value = load(key);
      cache.invalidateAll();
      return value;
    });
    assertThat(raced).isEqualTo("a#1");
    assertThat(cache.get("a", this::load)).isEqualTo("a#2");
    assertThat(cache.get("a", this::load)).isEqualTo("a#2");
  }

  @Test
  void nothingIsServedWhileChangesMightGoUnheard() {
    assertThat(cache.get("a", this::load)).isEqualTo("a#1");
    trusted.set(false);
    assertThat(cache.get("a", this::load)).isEqualTo("a#2");
    assertThat(cache.get("a", this::load)).isEqualTo("a#3");
  }

  @Test
  void onlyWhatWasFoundIsKept() {
    assertThat(cache.find("a", key -> Optional.<String>empty())).isEmpty();
    assertThat(cache.find("a", key -> Optional.of(load(key)))).contains("a#1");
    assertThat(cache.find("a", key -> Optional.of(load(key)))).contains("a#1");
  }
}
