package io.floe.application.iceberg;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

class MetadataCacheTest {

  @Test
  void eachLocationIsParsedOnceWhileItStaysCached() {
    AtomicInteger loads = new AtomicInteger();
    MetadataCache<String> cache = new MetadataCache<>(2);
    cache.get("a", location -> location + loads.incrementAndGet());
    assertThat(cache.get("a", location -> location + loads.incrementAndGet())).isEqualTo("a1");
    assertThat(loads).hasValue(1);
  }

  @Test
  void theLeastRecentlyUsedEntryLeavesFirst() {
    AtomicInteger loads = new AtomicInteger();
    MetadataCache<Integer> cache = new MetadataCache<>(2);
    cache.get("a", location -> loads.incrementAndGet());
    cache.get("b", location -> loads.incrementAndGet());
    cache.get("a", location -> loads.incrementAndGet());
    cache.get("c", location -> loads.incrementAndGet());
    assertThat(cache.get("a", location -> -1)).isEqualTo(1);
    assertThat(cache.get("b", location -> -1)).isEqualTo(-1);
  }
}
