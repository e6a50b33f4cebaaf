package io.floe.application.port.out.inmemory;

import io.floe.application.port.out.OrgStore;
import io.floe.application.port.out.inmemory.InMemoryDatabase.OrgRow;
import io.floe.domain.BucketConfig;
import io.floe.domain.CatalogName;
import io.floe.domain.Org;
import io.floe.domain.OrgName;
import io.floe.domain.StoragePlatform;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.UUID;

/** Orgs and bucket configurations in memory; nicknames are unique per org, case-insensitively. */
public final class InMemoryOrgStore implements OrgStore {
  private final InMemoryDatabase db;

  public InMemoryOrgStore(InMemoryDatabase db) {
    this.db = db;
  }

  @Override
  public Optional<Org> findOrg(OrgName name) {
    return db.statement(() -> db.orgs.values().stream().map(OrgRow::org)
        .filter(org -> org.name().equals(name)).findFirst());
  }

  @Override
  public Optional<Org> findOrg(UUID id) {
    return db.statement(() -> db.orgs.get(id).map(OrgRow::org));
  }

  @Override
  public boolean insertOrg(Org org) {
    return db.statement(() -> {
      if (findOrg(org.name()).isPresent()) {
        return false;
      }
      if (db.orgs.containsKey(org.id())) {
        throw InMemoryDatabase.uniqueViolation("orgs_pkey");
      }
      db.orgs.put(org.id(), new OrgRow(org, db.now()));
      return true;
    });
  }

  @Override
  public void setIcebergEnabled(UUID orgId, boolean enabled) {
    db.statement(() -> db.orgs.get(orgId).ifPresent(row -> db.orgs.put(orgId, new OrgRow(
        new Org(orgId, row.org().name(), enabled), row.createdAt()))));
  }

  @Override
  public List<BucketConfig> buckets(UUID orgId) {
    return db.statement(() -> db.buckets.values().stream()
        .filter(bucket -> bucket.orgId().equals(orgId))
        .sorted(Comparator.comparing(bucket -> bucket.nickname().value()))
        .toList());
  }

  @Override
  public List<BucketConfig> bucketsOn(StoragePlatform platform) {
    return db.statement(() -> db.buckets.values().stream()
        .filter(bucket -> bucket.platform() == platform).toList());
  }

  @Override
  public Optional<BucketConfig> bucket(UUID orgId, CatalogName nickname) {
    return db.statement(() -> db.buckets.values().stream()
        .filter(bucket -> bucket.orgId().equals(orgId)
            && bucket.nickname().key().equals(nickname.key()))
        .findFirst());
  }

  @Override
  public Optional<BucketConfig> bucket(UUID bucketId) {
    return db.statement(() -> db.buckets.get(bucketId));
  }

  @Override
  public Optional<BucketConfig> defaultBucket(UUID orgId) {
    return db.statement(() -> db.buckets.values().stream()
        .filter(bucket -> bucket.orgId().equals(orgId) && bucket.isDefault()).findFirst());
  }

  @Override
  public void insertBucket(BucketConfig bucket) {
    db.statement(() -> {
      if (db.buckets.containsKey(bucket.id())) {
        throw InMemoryDatabase.uniqueViolation("bucket_configs_pkey");
      }
      if (bucket(bucket.orgId(), bucket.nickname()).isPresent()) {
        throw InMemoryDatabase.uniqueViolation("bucket_configs_org_id_nickname_key_key");
      }
      if (bucket.isDefault() && defaultBucket(bucket.orgId()).isPresent()) {
        throw InMemoryDatabase.uniqueViolation("bucket_configs_one_default");
      }
      db.buckets.put(bucket.id(), bucket);
    });
  }

  @Override
  public void updateBucket(BucketConfig bucket) {
    db.statement(() -> db.buckets.get(bucket.id()).ifPresent(current ->
        db.buckets.put(current.id(), new BucketConfig(current.id(), current.orgId(),
            current.nickname(), bucket.platform(), bucket.bucket(), bucket.prefix(),
            bucket.endpoint(), bucket.region(), bucket.pathStyle(), bucket.credentials(),
            current.isDefault()))));
  }

  @Override
  public void deleteBucket(UUID bucketId) {
    db.statement(() -> db.buckets.remove(bucketId));
  }

  @Override
  public void setDefaultBucket(UUID orgId, UUID bucketId) {
    db.statement(() -> {
      for (BucketConfig bucket : buckets(orgId)) {
        boolean isDefault = bucket.id().equals(bucketId);
        db.buckets.put(bucket.id(), new BucketConfig(bucket.id(), bucket.orgId(),
            bucket.nickname(), bucket.platform(), bucket.bucket(), bucket.prefix(),
            bucket.endpoint(), bucket.region(), bucket.pathStyle(), bucket.credentials(),
            isDefault));
      }
    });
  }

  @Override
  public boolean isBucketInUse(UUID bucketId) {
    return db.statement(() ->
        db.claims.values().stream().anyMatch(row -> row.claim().bucketId().equals(bucketId))
            || db.namespaces.values().stream()
                .anyMatch(row -> row.owner().bucketId().equals(bucketId))
            || db.objects.values().stream()
                .anyMatch(object -> object.location().bucketId().equals(bucketId)));
  }

  @Override
  public void lockBucket(UUID bucketId) {
    // A transaction holds the whole database already.
  }

  @Override
  public void lockLocalBucketPlacement() {
    // A transaction holds the whole database already.
  }
}
