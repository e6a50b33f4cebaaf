package io.floe.application.port.out.contract;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.floe.application.port.out.BucketStorage;
import io.floe.application.port.out.StoredObject;
import io.floe.domain.StoragePath;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * What every {@link BucketStorage} promises, run against each platform's adapter on a real
 * server, and on the in-memory bucket of the test fixtures. Every test works under a fresh
 * prefix, so one bucket serves the whole class.
 */
public abstract class BucketStorageContract {
  private final StoragePath base = new StoragePath("contract-" + UUID.randomUUID());

  /** The storage under test; the same instance for the whole test class is fine. */
  protected abstract BucketStorage storage();

  /** The URI {@link BucketStorage#uri} gives for {@code key}. */
  protected abstract String expectedUri(StoragePath key);

  /**
   * Whether the server evaluates write preconditions atomically, so that of many concurrent
   * conditional writers exactly one wins. S3 and GCS document it; some emulators check first
   * and write after, which a race can slip through.
   */
  protected boolean preconditionsAreAtomic() {
    return true;
  }

  /** Whether the server refuses conditional writes whose condition fails, as real stores do. */
  protected boolean enforcesPreconditions() {
    return true;
  }

  protected StoragePath key(String relative) {
    return new StoragePath(base.value() + "/" + relative);
  }

  private static byte[] bytes(String text) {
    return text.getBytes(UTF_8);
  }

  @Test
  void aMissingObjectReadsAsEmpty() {
    assertThat(storage().get(key("missing"))).isEmpty();
    assertThat(storage().getRange(key("missing"), 0, 10)).isEmpty();
    assertThat(storage().exists(key("missing"))).isFalse();
  }

  @Test
  void putThenGetReturnsTheBytesAndAVersion() {
    storage().put(key("a/b.json"), bytes("{\"x\":1}"));
    StoredObject read = storage().get(key("a/b.json")).orElseThrow();
    assertThat(read.data()).isEqualTo(bytes("{\"x\":1}"));
    assertThat(read.version()).isNotBlank();
    assertThat(storage().exists(key("a/b.json"))).isTrue();
  }

  @Test
  void putReplacesAndChangesTheVersion() {
    storage().put(key("k"), bytes("one"));
    String first = storage().get(key("k")).orElseThrow().version();
    storage().put(key("k"), bytes("two"));
    StoredObject second = storage().get(key("k")).orElseThrow();
    assertThat(second.data()).isEqualTo(bytes("two"));
    assertThat(second.version()).isNotEqualTo(first);
  }

  @Test
  void emptyObjectsAreObjects() {
    storage().put(key("empty"), new byte[0]);
    assertThat(storage().get(key("empty")).orElseThrow().data()).isEmpty();
    assertThat(storage().getRange(key("empty"), 0, 5)).contains(new byte[0]);
    assertThat(storage().list(base, 10)).containsExactly(key("empty"));
  }

  @Test
  void putIfAbsentWritesOnlyOnce() {
    assumeTrue(enforcesPreconditions(), "this server ignores write preconditions");
    assertThat(storage().putIfAbsent(key("once"), bytes("first"))).isTrue();
    assertThat(storage().putIfAbsent(key("once"), bytes("second"))).isFalse();
    assertThat(storage().get(key("once")).orElseThrow().data()).isEqualTo(bytes("first"));
  }

  @Test
  void putIfVersionReplacesOnlyTheVersionItRead() {
    assumeTrue(enforcesPreconditions(), "this server ignores write preconditions");
    storage().put(key("ref"), bytes("v1"));
    String v1 = storage().get(key("ref")).orElseThrow().version();

    assertThat(storage().putIfVersion(key("ref"), bytes("v2"), v1)).isTrue();
    String v2 = storage().get(key("ref")).orElseThrow().version();
    assertThat(storage().putIfVersion(key("ref"), bytes("stale"), v1)).isFalse();

    StoredObject now = storage().get(key("ref")).orElseThrow();
    assertThat(now.data()).isEqualTo(bytes("v2"));
    assertThat(now.version()).isEqualTo(v2);
  }

  @Test
  void putIfVersionOnAVanishedObjectFails() {
    assumeTrue(enforcesPreconditions(), "this server ignores write preconditions");
    storage().put(key("gone"), bytes("v1"));
    String v1 = storage().get(key("gone")).orElseThrow().version();
    storage().delete(key("gone"));
    assertThat(storage().putIfVersion(key("gone"), bytes("v2"), v1)).isFalse();
    assertThat(storage().exists(key("gone"))).isFalse();
  }

  @Test
  void ofConcurrentCreatorsExactlyOneWins() throws Exception {
    assumeTrue(enforcesPreconditions() && preconditionsAreAtomic(),
        "this server does not evaluate preconditions atomically");
    List<Boolean> results = race(8, i -> storage().putIfAbsent(key("race"), bytes("writer " + i)));
    assertThat(results).containsOnlyOnce(true);
  }

  @Test
  void ofConcurrentReplacersOfOneVersionExactlyOneWins() throws Exception {
    assumeTrue(enforcesPreconditions() && preconditionsAreAtomic(),
        "this server does not evaluate preconditions atomically");
    storage().put(key("cas"), bytes("base"));
    String version = storage().get(key("cas")).orElseThrow().version();
    List<Boolean> results = race(8,
        i -> storage().putIfVersion(key("cas"), bytes("writer " + i), version));
    assertThat(results).containsOnlyOnce(true);
  }

  @Test
  void rangesReadPartsOfAnObject() {
    storage().put(key("range"), bytes("0123456789"));
    assertThat(storage().getRange(key("range"), 2, 3)).contains(bytes("234"));
    assertThat(storage().getRange(key("range"), 8, 10)).contains(bytes("89"));
    assertThat(storage().getRange(key("range"), 10, 4)).contains(new byte[0]);
    assertThat(storage().getRange(key("range"), 12, 4)).contains(new byte[0]);
  }

  @Test
  void listingIsSegmentWiseSortedAndLimited() {
    storage().put(key("t/b"), bytes("1"));
    storage().put(key("t/a/x"), bytes("2"));
    storage().put(key("t/c/d/e"), bytes("3"));
    storage().put(key("tt/not-under-t"), bytes("4"));

    assertThat(storage().list(key("t"), 100))
        .containsExactly(key("t/a/x"), key("t/b"), key("t/c/d/e"));
    assertThat(storage().list(key("t"), 2)).containsExactly(key("t/a/x"), key("t/b"));
    assertThat(storage().list(key("nothing"), 10)).isEmpty();
  }

  @Test
  void listingWalksEveryPage() {
    List<StoragePath> written = new ArrayList<>();
    for (int i = 0; i < 23; i++) {
      StoragePath k = key(String.format("many/%03d", i));
      storage().put(k, bytes(Integer.toString(i)));
      written.add(k);
    }
    assertThat(storage().list(key("many"), 1000)).containsExactlyElementsOf(written);
    assertThat(storage().list(key("many"), 17)).containsExactlyElementsOf(written.subList(0, 17));
  }

  @Test
  void detailedListingReportsSizesAndWriteTimes() {
    java.time.Instant before = java.time.Instant.now().minusSeconds(120);
    storage().put(key("d/one"), new byte[] {1});
    storage().put(key("d/sub/three"), new byte[] {1, 2, 3});
    storage().put(key("e/other"), new byte[] {9});
    java.util.List<io.floe.application.port.out.ListedObject> listed =
        storage().listObjects(key("d"), 100);
    assertThat(listed).extracting(io.floe.application.port.out.ListedObject::key)
        .containsExactly(key("d/one"), key("d/sub/three"));
    assertThat(listed).extracting(io.floe.application.port.out.ListedObject::sizeBytes)
        .containsExactly(1L, 3L);
    assertThat(listed).allSatisfy(o -> assertThat(o.lastModified())
        .isBetween(before, java.time.Instant.now().plusSeconds(120)));
    assertThat(storage().listObjects(key("d"), 1)).hasSize(1);
  }

  @Test
  void emptinessIsJudgedUnderAPrefix() {
    assertThat(storage().isEmptyUnder(key("claim"))).isTrue();
    storage().put(key("claimed/marker"), bytes("x"));
    assertThat(storage().isEmptyUnder(key("claim"))).isTrue();
    assertThat(storage().isEmptyUnder(key("claimed"))).isFalse();
  }

  @Test
  void aPreparedLocationHoldsNothingAndTakesWrites() {
    storage().prepareLocation(key("prepared/table"));
    assertThat(storage().isEmptyUnder(key("prepared"))).isTrue();
    assertThat(storage().list(key("prepared"), 10)).isEmpty();
    storage().prepareLocation(key("prepared/table"));
    storage().put(key("prepared/table/data/f.parquet"), bytes("x"));
    assertThat(storage().list(key("prepared"), 10))
        .containsExactly(key("prepared/table/data/f.parquet"));
  }

  @Test
  void deleteRemovesOneObjectAndToleratesAMissingOne() {
    storage().put(key("del"), bytes("x"));
    storage().delete(key("del"));
    storage().delete(key("del"));
    assertThat(storage().exists(key("del"))).isFalse();
  }

  @Test
  void deleteUnderRemovesEverythingBelowAndNothingBeside() {
    for (int i = 0; i < 15; i++) {
      storage().put(key("doomed/" + (i % 3) + "/f" + i), bytes("x"));
    }
    storage().put(key("doomed-sibling/keep"), bytes("keep"));

    assertThat(storage().deleteUnder(key("doomed"))).isEqualTo(15);
    assertThat(storage().isEmptyUnder(key("doomed"))).isTrue();
    assertThat(storage().exists(key("doomed-sibling/keep"))).isTrue();
    assertThat(storage().deleteUnder(key("doomed"))).isZero();
  }

  @Test
  void deleteUnderRefusesTheWholeBucket() {
    assertThatThrownBy(() -> storage().deleteUnder(StoragePath.root()))
        .isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void urisNameTheObjectAsEnginesAddressIt() {
    assertThat(storage().uri(key("m/v1.metadata.json")))
        .isEqualTo(expectedUri(key("m/v1.metadata.json")));
  }

  private interface Attempt {
    boolean run(int writer) throws Exception;
  }

  /** Starts {@code writers} attempts together and returns what each reported. */
  private static List<Boolean> race(int writers, Attempt attempt) throws Exception {
    ExecutorService pool = Executors.newFixedThreadPool(writers);
    try {
      CountDownLatch start = new CountDownLatch(1);
      List<Future<Boolean>> futures = new ArrayList<>();
      for (int i = 0; i < writers; i++) {
        int writer = i;
        Callable<Boolean> task = () -> {
          start.await();
          return attempt.run(writer);
        };
        futures.add(pool.submit(task));
      }
      start.countDown();
      List<Boolean> results = new ArrayList<>();
      for (Future<Boolean> future : futures) {
        results.add(future.get(60, TimeUnit.SECONDS));
      }
      return results;
    } finally {
      pool.shutdownNow();
    }
  }
}
