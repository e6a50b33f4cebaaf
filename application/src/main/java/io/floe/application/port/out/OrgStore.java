package io.floe.application.port.out;

import io.floe.domain.BucketConfig;
import io.floe.domain.CatalogName;
import io.floe.domain.Org;
import io.floe.domain.OrgName;
import io.floe.domain.StoragePlatform;
import java.util.List;
import java.util.Optional;
import java.util.UUID;

/** Orgs and their bucket configurations. */
public interface OrgStore {
  Optional<Org> findOrg(OrgName name);

  Optional<Org> findOrg(UUID id);

  /** Inserts the org; false when an org of that name exists (a concurrent create won). */
  boolean insertOrg(Org org);

  /** Turns the org's Iceberg feature flag on or off: an operator's decision, not an org's. */
  void setIcebergEnabled(UUID orgId, boolean enabled);

  List<BucketConfig> buckets(UUID orgId);

  /** Every bucket configuration on {@code platform}, across all orgs. */
  List<BucketConfig> bucketsOn(StoragePlatform platform);

  Optional<BucketConfig> bucket(UUID orgId, CatalogName nickname);

  Optional<BucketConfig> bucket(UUID bucketId);

  Optional<BucketConfig> defaultBucket(UUID orgId);

  /**
   * Inserts the configuration; refused with an exception when the org already has one of that
   * nickname (compared case-insensitively) or, for a default one, already has a default.
   */
  void insertBucket(BucketConfig bucket);

  /** Rewrites a bucket configuration's settings; its id, org, nickname and default flag stay. */
  void updateBucket(BucketConfig bucket);

  void deleteBucket(UUID bucketId);

  /** Makes the bucket the org's only default. */
  void setDefaultBucket(UUID orgId, UUID bucketId);

  /** Whether any namespace, table or repo (live or awaiting cleanup) uses the bucket. */
  boolean isBucketInUse(UUID bucketId);

  /**
   * Takes a row lock on the bucket until the surrounding transaction ends, so that prefix claims
   * on one bucket are checked and written one at a time.
   */
  void lockBucket(UUID bucketId);

  /**
   * Takes a lock until the surrounding transaction ends, so that local bucket directories are
   * checked against each other and stored one placement at a time.
   */
  void lockLocalBucketPlacement();
}
