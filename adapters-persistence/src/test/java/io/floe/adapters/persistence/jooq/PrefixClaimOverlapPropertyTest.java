package io.floe.adapters.persistence.jooq;

import static org.assertj.core.api.Assertions.assertThat;

import io.floe.adapters.persistence.TestDatabases;
import io.floe.application.port.out.BucketStorage;
import io.floe.application.port.out.StoredObject;
import io.floe.application.service.lifecycle.PrefixClaimer;
import io.floe.domain.BucketConfig;
import io.floe.domain.BucketCredentials;
import io.floe.domain.CatalogName;
import io.floe.domain.Org;
import io.floe.domain.OrgName;
import io.floe.domain.PrefixClaim;
import io.floe.domain.StoragePath;
import io.floe.domain.StoragePlatform;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.lifecycle.AfterContainer;
import net.jqwik.api.lifecycle.BeforeContainer;
import org.apache.iceberg.exceptions.AlreadyExistsException;

/**
 * Whatever prefixes are asked for, in whatever interleaving, no two live claims on a bucket ever
 * overlap, and a claim is refused only when it does overlap one. Claims go through the real
 * claimer and the real SQL on PostgreSQL, several at a time, each in its own transaction. The
 * segments are chosen to collide often, including names that share characters but no segment
 * ({@code a} and {@code ab}), which must not count as overlapping.
 */
class PrefixClaimOverlapPropertyTest {
  private static final List<String> SEGMENTS = List.of("a", "b", "ab", "a_b");
  private static final int THREADS = 4;
  private static Database database;
  private static JooqOrgStore orgs;
  private static JooqPrefixClaimStore claims;
  private static PrefixClaimer claimer;
  private static Org org;

  @BeforeContainer
  static void openDatabase() {
    database = Database.open(TestDatabases.freshDatabase(TestDatabases.embeddedServer()),
        THREADS + 2);
    orgs = new JooqOrgStore(database, TestDatabases.cipher());
    claims = new JooqPrefixClaimStore(database);
    // Nothing is ever stored: every prefix is empty, so only overlap can refuse a claim.
    claimer = new PrefixClaimer(orgs, claims, bucket -> new EmptyBucket());
    org = new Org(UUID.randomUUID(), new OrgName("claims"), true);
    database.inTransaction(() -> orgs.insertOrg(org));
  }

  @AfterContainer
  static void closeDatabase() {
    database.close();
  }

  @Property(tries = 40)
  void liveClaimsNeverOverlap(@ForAll("claimRequests") List<StoragePath> requests)
      throws Exception {
    BucketConfig bucket = newBucket();
    List<Future<Optional<StoragePath>>> attempts = new ArrayList<>();
    ExecutorService threads = Executors.newFixedThreadPool(THREADS);
    try {
      for (StoragePath path : requests) {
        attempts.add(threads.submit(() -> claim(bucket, path)));
      }
      List<StoragePath> refused = new ArrayList<>();
      for (Future<Optional<StoragePath>> attempt : attempts) {
        attempt.get().ifPresent(refused::add);
      }

      // Every claim lies under one of the first segments, so these queries together see all.
      List<StoragePath> all = SEGMENTS.stream()
          .flatMap(top -> claims.overlapping(bucket.id(), new StoragePath(top)).stream())
          .map(PrefixClaim::path).distinct().toList();
      for (int i = 0; i < all.size(); i++) {
        for (int j = i + 1; j < all.size(); j++) {
          assertThat(all.get(i).overlaps(all.get(j)))
              .as("%s and %s are both claimed", all.get(i), all.get(j)).isFalse();
        }
      }
      for (StoragePath path : refused) {
        assertThat(all).as("%s was refused without an overlapping claim", path)
            .anyMatch(claimed -> claimed.overlaps(path));
      }
    } finally {
      threads.shutdownNow();
    }
  }

  @Provide
  Arbitrary<List<StoragePath>> claimRequests() {
    Arbitrary<StoragePath> path = Arbitraries.of(SEGMENTS).list().ofMinSize(1).ofMaxSize(3)
        .map(segments -> new StoragePath(String.join("/", segments)));
    return path.list().ofMinSize(1).ofMaxSize(12);
  }

  /** Empty when the claim was recorded, else the path that was refused. */
  private static Optional<StoragePath> claim(BucketConfig bucket, StoragePath path) {
    try {
      database.inTransaction(() -> claimer.claim(bucket, new PrefixClaim(bucket.id(), path,
          new PrefixClaim.Owner(PrefixClaim.OwnerKind.NAMESPACE, UUID.randomUUID())), "{}"));
      return Optional.empty();
    } catch (AlreadyExistsException e) {
      return Optional.of(path);
    }
  }

  private static BucketConfig newBucket() {
    BucketConfig bucket = new BucketConfig(UUID.randomUUID(), org.id(),
        new CatalogName("b" + UUID.randomUUID().toString().replace("-", "")),
        StoragePlatform.S3, "bucket", StoragePath.root(), Optional.empty(), Optional.empty(),
        false, BucketCredentials.none(), false);
    database.inTransaction(() -> orgs.insertBucket(bucket));
    return bucket;
  }

  /** A bucket with nothing in it that accepts and forgets every write. */
  private static final class EmptyBucket implements BucketStorage {
    @Override
    public Optional<StoredObject> get(StoragePath key) {
      return Optional.empty();
    }

    @Override
    public Optional<byte[]> getRange(StoragePath key, long offset, int length) {
      return Optional.empty();
    }

    @Override
    public void put(StoragePath key, byte[] data) {}

    @Override
    public boolean putIfAbsent(StoragePath key, byte[] data) {
      return true;
    }

    @Override
    public boolean putIfVersion(StoragePath key, byte[] data, String expectedVersion) {
      return false;
    }

    @Override
    public boolean exists(StoragePath key) {
      return false;
    }

    @Override
    public List<StoragePath> list(StoragePath prefix, int limit) {
      return List.of();
    }

    @Override
    public List<io.floe.application.port.out.ListedObject> listObjects(StoragePath prefix,
        int limit) {
      return List.of();
    }

    @Override
    public void delete(StoragePath key) {}

    @Override
    public long deleteUnder(StoragePath prefix) {
      return 0;
    }

    @Override
    public String uri(StoragePath key) {
      return "s3://bucket/" + key;
    }
  }
}
