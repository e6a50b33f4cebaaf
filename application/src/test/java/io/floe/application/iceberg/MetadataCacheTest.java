package io.floe.application.iceberg;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

class MetadataCacheTest {

  @Test
  void eachLocationIsParsedOnceWhileItStaysCached() {
    AtomicInteger loads = new AtomicInteger();
    MetadataCache<String> cache = new MetadataCache<>(100);
    cache.get("a", location -> new MetadataCache.Sized<>(location + loads.incrementAndGet(), 10));
    assertThat(cache.get("a", location -> new MetadataCache.Sized<>("again", 10)))
        .isEqualTo("a1");
    assertThat(loads).hasValue(1);
  }

  @Test
  void theLeastRecentlyUsedFilesLeaveFirstOnceTheBytesAreOverTheBound() {
    AtomicInteger loads = new AtomicInteger();
    MetadataCache<Integer> cache = new MetadataCache<>(100);
    cache.get("a", location -> new MetadataCache.Sized<>(loads.incrementAndGet(), 40));
    cache.get("b", location -> new MetadataCache.Sized<>(loads.incrementAndGet(), 40));
    cache.get("a", location -> new MetadataCache.Sized<>(-1, 40));
    cache.get("c", location -> new MetadataCache.Sized<>(loads.incrementAndGet(), 40));

    assertThat(cache.bytes()).isEqualTo(80);
    assertThat(cache.get("a", location -> new MetadataCache.Sized<>(-1, 40))).isEqualTo(1);
    assertThat(cache.get("b", location -> new MetadataCache.Sized<>(-1, 40))).isEqualTo(-1);
  }

  @Test
  void oneLargeFileMayPushOutManySmallOnes() {
    MetadataCache<String> cache = new MetadataCache<>(100);
    for (int i = 0; i < 10; i++) {
      cache.get("small" + i, location -> new MetadataCache.Sized<>(location, 10));
    }
    cache.get("large", location -> new MetadataCache.Sized<>(location, 95));

    assertThat(cache.bytes()).isEqualTo(95);
    assertThat(cache.get("large", location -> new MetadataCache.Sized<>("parsed again", 95)))
        .isEqualTo("large");
  }

  @Test
  void aFileLargerThanTheBoundIsParsedButNotKept() {
    AtomicInteger loads = new AtomicInteger();
    MetadataCache<Integer> cache = new MetadataCache<>(100);
    cache.get("kept", location -> new MetadataCache.Sized<>(0, 50));

    assertThat(cache.get("huge", location -> new MetadataCache.Sized<>(
        loads.incrementAndGet(), 101))).isEqualTo(1);
    assertThat(cache.get("huge", location -> new MetadataCache.Sized<>(
        loads.incrementAndGet(), 101))).isEqualTo(2);
    assertThat(cache.get("kept", location -> new MetadataCache.Sized<>(-1, 50))).isZero();
    assertThat(cache.bytes()).isEqualTo(50);
  }
}
