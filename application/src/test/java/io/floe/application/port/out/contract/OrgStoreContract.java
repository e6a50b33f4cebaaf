package io.floe.application.port.out.contract;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.floe.application.port.out.OrgStore;
import io.floe.domain.BucketConfig;
import io.floe.domain.BucketCredentials;
import io.floe.domain.CatalogName;
import io.floe.domain.CatalogObject;
import io.floe.domain.Namespace;
import io.floe.domain.Org;
import io.floe.domain.OrgName;
import io.floe.domain.PrefixClaim;
import io.floe.domain.StorageLocation;
import io.floe.domain.StoragePath;
import io.floe.domain.StoragePlatform;
import io.floe.domain.Visibility;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.FutureTask;
import org.junit.jupiter.api.Test;

/**
 * {@link OrgStore}: an org name is taken once; bucket nicknames are unique per org,
 * case-insensitively, with at most one default; a bucket is in use while anything holds a prefix
 * on it; a bucket's lock makes its claimers take turns, and so does the lock on placing local
 * buckets.
 */
public abstract class OrgStoreContract extends PortContract {
  private OrgStore orgs() {
    return ports().orgs();
  }

  @Test
  void orgsAndBucketsRoundTrip() {
    Org org = fixture.org;
    BucketConfig bucket = fixture.bucket;
    assertThat(orgs().findOrg(org.name())).contains(org);
    assertThat(orgs().findOrg(org.id())).contains(org);
    assertThat(orgs().defaultBucket(org.id())).contains(bucket);
    assertThat(orgs().bucket(org.id(), new CatalogName("MAIN"))).contains(bucket);
    assertThat(orgs().bucket(bucket.id()).orElseThrow().credentials().secretAccessKey())
        .contains("SK");
    assertThat(orgs().findOrg(new OrgName("no-such-org-" + UUID.randomUUID().toString()
        .substring(0, 8)))).isEmpty();
    assertThat(orgs().findOrg(UUID.randomUUID())).isEmpty();
  }

  @Test
  void anOrgNameIsTakenOnce() {
    assertThat(orgs().insertOrg(new Org(UUID.randomUUID(), fixture.org.name(), false))).isFalse();
    assertThat(orgs().findOrg(fixture.org.name())).contains(fixture.org);
  }

  @Test
  void theIcebergFlagIsSwitchedPerOrg() {
    Org other = fixture.newOrg();
    orgs().setIcebergEnabled(fixture.org.id(), false);
    assertThat(orgs().findOrg(fixture.org.id()).orElseThrow().icebergEnabled()).isFalse();
    assertThat(orgs().findOrg(other.id()).orElseThrow().icebergEnabled()).isTrue();
    orgs().setIcebergEnabled(fixture.org.id(), true);
    assertThat(orgs().findOrg(fixture.org.id()).orElseThrow().icebergEnabled()).isTrue();
  }

  @Test
  void anOrgHasAtMostOneDefaultBucket() {
    assertThatThrownBy(() -> orgs().insertBucket(fixture.bucketConfig("second", true)))
        .hasMessageContaining("bucket_configs_one_default");
    orgs().insertBucket(fixture.bucketConfig("third", false));
    assertThat(orgs().buckets(fixture.org.id())).hasSize(2);
  }

  @Test
  void aNicknameIsTakenOncePerOrgWhateverItsCase() {
    assertThatThrownBy(() -> orgs().insertBucket(fixture.bucketConfig("Main", false)))
        .isInstanceOf(RuntimeException.class);
    Org other = fixture.newOrg();
    BucketConfig elsewhere = new BucketConfig(UUID.randomUUID(), other.id(),
        new CatalogName("main"), StoragePlatform.S3, "data", StoragePath.root(),
        Optional.empty(), Optional.empty(), false, BucketCredentials.ambient(), true);
    orgs().insertBucket(elsewhere);
    assertThat(orgs().bucket(other.id(), new CatalogName("main"))).contains(elsewhere);
    assertThat(orgs().bucket(fixture.org.id(), new CatalogName("main"))).contains(fixture.bucket);
  }

  @Test
  void bucketsAreListedByNickname() {
    BucketConfig zeta = fixture.bucket("zeta", false);
    BucketConfig alpha = fixture.bucket("alpha", false);
    assertThat(orgs().buckets(fixture.org.id())).containsExactly(alpha, fixture.bucket, zeta);
    assertThat(orgs().buckets(fixture.newOrg().id())).isEmpty();
  }

  @Test
  void anUpdateRewritesSettingsButKeepsIdOrgNicknameAndDefault() {
    BucketConfig changed = new BucketConfig(fixture.bucket.id(), fixture.org.id(),
        new CatalogName("renamed"), StoragePlatform.GCS, "other-bucket", new StoragePath("p"),
        Optional.empty(), Optional.of("eu"), false, BucketCredentials.ambient(), false);
    orgs().updateBucket(changed);
    BucketConfig read = orgs().bucket(fixture.bucket.id()).orElseThrow();
    assertThat(read).isEqualTo(new BucketConfig(fixture.bucket.id(), fixture.org.id(),
        new CatalogName("main"), StoragePlatform.GCS, "other-bucket", new StoragePath("p"),
        Optional.empty(), Optional.of("eu"), false, BucketCredentials.ambient(), true));
  }

  @Test
  void theDefaultMovesToOneBucketOnly() {
    BucketConfig second = fixture.bucket("second", false);
    orgs().setDefaultBucket(fixture.org.id(), second.id());
    assertThat(orgs().defaultBucket(fixture.org.id()).orElseThrow().id()).isEqualTo(second.id());
    assertThat(orgs().bucket(fixture.bucket.id()).orElseThrow().isDefault()).isFalse();
  }

  @Test
  void aTransactionReadsTheBucketsItHasJustChanged() {
    BucketConfig second = fixture.bucket("second", false);
    assertThat(orgs().bucket(second.id()).orElseThrow().isDefault()).isFalse(); // read once before
    boolean seen = ports().unitOfWork().inTransaction(() -> {
      orgs().setDefaultBucket(fixture.org.id(), second.id());
      return orgs().bucket(second.id()).orElseThrow().isDefault();
    });
    assertThat(seen).isTrue();
    assertThat(orgs().bucket(second.id()).orElseThrow().isDefault()).isTrue();
  }

  @Test
  void aDeletedBucketIsGone() {
    BucketConfig spare = fixture.bucket("spare", false);
    orgs().deleteBucket(spare.id());
    assertThat(orgs().bucket(spare.id())).isEmpty();
    assertThat(orgs().bucket(fixture.org.id(), new CatalogName("spare"))).isEmpty();
  }

  @Test
  void aBucketIsInUseWhileAClaimANamespaceOrATableIsOnIt() {
    BucketConfig spare = fixture.bucket("spare", false);
    assertThat(orgs().isBucketInUse(spare.id())).isFalse();

    UUID repo = UUID.randomUUID();
    ports().claims().insert(new PrefixClaim(spare.id(), new StoragePath("r"),
        new PrefixClaim.Owner(PrefixClaim.OwnerKind.REPO, repo)));
    assertThat(orgs().isBucketInUse(spare.id())).isTrue();
    ports().claims().releaseAllOf(repo);
    assertThat(orgs().isBucketInUse(spare.id())).isFalse();

    // A namespace counts until it is purged, deleted or not.
    Namespace onSpare = new Namespace(UUID.randomUUID(), fixture.org.id(),
        new CatalogName("on-spare"), spare.id(), new StoragePath("ns"), Map.of(),
        Optional.empty(), Map.of(), Visibility.PRIVATE, fixture.now, fixture.now,
        Optional.empty());
    ports().namespaces().insert(onSpare);
    ports().namespaceDeletes().markDeleted(onSpare.id(), fixture.now, fixture.now, false, true);
    assertThat(orgs().isBucketInUse(spare.id())).isTrue();
    ports().namespaceDeletes().purge(onSpare.id());
    assertThat(orgs().isBucketInUse(spare.id())).isFalse();

    // A table whose files are on the bucket, catalogued in a namespace on another.
    Namespace home = fixture.namespace("home");
    CatalogObject table = fixture.objectRow(home, "t", CatalogObject.Kind.TABLE, "v0");
    ports().objects().insert(new CatalogObject(table.id(), home.id(), table.name(),
        table.kind(), "v0", new StorageLocation(spare.id(), new StoragePath("own")), true,
        fixture.now, fixture.now));
    assertThat(orgs().isBucketInUse(spare.id())).isTrue();
  }

  @Test
  void aBucketsLockMakesItsClaimersTakeTurns() {
    List<String> events = Collections.synchronizedList(new ArrayList<>());
    FutureTask<Void> second = ports().unitOfWork().inTransaction(() -> {
      orgs().lockBucket(fixture.bucket.id());
      FutureTask<Void> other = Concurrently.start(() -> {
        ports().unitOfWork().inTransaction(() -> {
          orgs().lockBucket(fixture.bucket.id());
          events.add("second locked");
        });
        return null;
      });
      Concurrently.grace();
      events.add("first done");
      return other;
    });
    Concurrently.result(second);
    assertThat(events).containsExactly("first done", "second locked");
  }

  @Test
  void localBucketsOfEveryOrgAreListedTogether() {
    BucketConfig local = new BucketConfig(UUID.randomUUID(), fixture.org.id(),
        new CatalogName("disk"), StoragePlatform.LOCAL, "/srv/" + fixture.org.name(),
        StoragePath.root(), Optional.empty(), Optional.empty(), false, BucketCredentials.none(),
        false);
    orgs().insertBucket(local);
    assertThat(orgs().bucketsOn(StoragePlatform.LOCAL)).contains(local)
        .doesNotContain(fixture.bucket)
        .allMatch(found -> found.platform() == StoragePlatform.LOCAL);
    assertThat(orgs().bucketsOn(fixture.bucket.platform())).contains(fixture.bucket);
  }

  @Test
  void localBucketPlacementsTakeTurns() {
    List<String> events = Collections.synchronizedList(new ArrayList<>());
    FutureTask<Void> second = ports().unitOfWork().inTransaction(() -> {
      orgs().lockLocalBucketPlacement();
      FutureTask<Void> other = Concurrently.start(() -> {
        ports().unitOfWork().inTransaction(() -> {
          orgs().lockLocalBucketPlacement();
          events.add("second placed");
        });
        return null;
      });
      Concurrently.grace();
      events.add("first done");
      return other;
    });
    Concurrently.result(second);
    assertThat(events).containsExactly("first done", "second placed");
  }
}
