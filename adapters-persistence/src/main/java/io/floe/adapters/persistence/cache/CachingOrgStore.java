package io.floe.adapters.persistence.cache;

import io.floe.application.port.out.OrgStore;
import io.floe.domain.BucketConfig;
import io.floe.domain.CatalogName;
import io.floe.domain.Org;
import io.floe.domain.OrgName;
import io.floe.domain.StoragePlatform;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;

/**
 * The org store with orgs by name and bucket configurations by id cached, as every request reads
 * them; the rest goes straight to the store.
 */
public final class CachingOrgStore implements OrgStore {
  private final OrgStore store;
  private final InvalidatedCache<OrgName, Org> orgsByName;
  private final InvalidatedCache<UUID, BucketConfig> buckets;

  public CachingOrgStore(OrgStore store, CacheInvalidations invalidations) {
    this.store = store;
    this.orgsByName = invalidations.newCache("orgs", 1_000, Set.of("orgs"));
    this.buckets = invalidations.newCache("buckets", 1_000, Set.of("bucket_configs"));
  }

  @Override
  public Optional<Org> findOrg(OrgName name) {
    return orgsByName.find(name, store::findOrg);
  }

  @Override
  public Optional<BucketConfig> bucket(UUID bucketId) {
    return buckets.find(bucketId, store::bucket);
  }

  @Override
  public Optional<Org> findOrg(UUID id) {
    return store.findOrg(id);
  }

  @Override
  public boolean insertOrg(Org org) {
    return store.insertOrg(org);
  }

  @Override
  public void setIcebergEnabled(UUID orgId, boolean enabled) {
    store.setIcebergEnabled(orgId, enabled);
  }

  @Override
  public List<BucketConfig> buckets(UUID orgId) {
    return store.buckets(orgId);
  }

  @Override
  public List<BucketConfig> bucketsOn(StoragePlatform platform) {
    return store.bucketsOn(platform);
  }

  @Override
  public Optional<BucketConfig> bucket(UUID orgId, CatalogName nickname) {
    return store.bucket(orgId, nickname);
  }

  @Override
  public Optional<BucketConfig> defaultBucket(UUID orgId) {
    return store.defaultBucket(orgId);
  }

  @Override
  public void insertBucket(BucketConfig bucket) {
    store.insertBucket(bucket);
  }

  @Override
  public void updateBucket(BucketConfig bucket) {
    store.updateBucket(bucket);
  }

  @Override
  public void deleteBucket(UUID bucketId) {
    store.deleteBucket(bucketId);
  }

  @Override
  public void setDefaultBucket(UUID orgId, UUID bucketId) {
    store.setDefaultBucket(orgId, bucketId);
  }

  @Override
  public boolean isBucketInUse(UUID bucketId) {
    return store.isBucketInUse(bucketId);
  }

  @Override
  public void lockBucket(UUID bucketId) {
    store.lockBucket(bucketId);
  }

  @Override
  public void lockLocalBucketPlacement() {
    store.lockLocalBucketPlacement();
  }
}
