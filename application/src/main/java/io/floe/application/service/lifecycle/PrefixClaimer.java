package io.floe.application.service.lifecycle;

import io.floe.application.port.out.BucketStorage;
import io.floe.application.port.out.BucketStorageProvider;
import io.floe.application.port.out.OrgStore;
import io.floe.application.port.out.PrefixClaimStore;
import io.floe.domain.BucketConfig;
import io.floe.domain.PrefixClaim;
import io.floe.domain.StoragePath;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.apache.iceberg.exceptions.AlreadyExistsException;

/**
 * Claims a storage prefix for a namespace, table or repo: locks the bucket, refuses a prefix that
 * overlaps any other claim on it or that already holds objects, records the claim and writes the
 * marker object. Runs inside the caller's transaction; the marker is written last, so a failure
 * before it leaves nothing in storage.
 */
public final class PrefixClaimer {
  /** The marker at the root of every claimed prefix. Engines never look at a prefix's root. */
  public static final String MARKER = ".floe-warehouse.json";

  private final OrgStore orgs;
  private final PrefixClaimStore claims;
  private final BucketStorageProvider storage;

  public PrefixClaimer(OrgStore orgs, PrefixClaimStore claims, BucketStorageProvider storage) {
    this.orgs = orgs;
    this.claims = claims;
    this.storage = storage;
  }

  public void claim(BucketConfig bucket, PrefixClaim claim, String markerJson) {
    reserve(bucket, claim);
    writeMarker(bucket, claim.path(), markerJson);
  }

  /**
   * Records the claim after the overlap and emptiness checks, without writing the marker: the
   * first half of a creation that commits its claim before it touches storage.
   */
  public void reserve(BucketConfig bucket, PrefixClaim claim) {
    orgs.lockBucket(bucket.id());
    List<PrefixClaim> overlapping = claims.overlapping(bucket.id(), claim.path());
    if (!overlapping.isEmpty()) {
      throw new AlreadyExistsException("Storage prefix '%s' on bucket '%s' overlaps the prefix of "
          + "another %s", claim.path(), bucket.nickname(),
          overlapping.get(0).owner().kind().name().toLowerCase(java.util.Locale.ROOT));
    }
    BucketStorage bucketStorage = storage.open(bucket);
    if (!bucketStorage.isEmptyUnder(claim.path())) {
      throw new AlreadyExistsException("Storage prefix '%s' on bucket '%s' is not empty; Floe only "
          + "claims empty prefixes", claim.path(), bucket.nickname());
    }
    claims.insert(claim);
  }

  public void writeMarker(BucketConfig bucket, StoragePath prefix, String markerJson) {
    storage.open(bucket).put(markerOf(prefix), markerJson.getBytes(StandardCharsets.UTF_8));
  }


  /**
   * Removes everything under a prefix whose claim did not commit: it was empty when claimed, and
   * the bucket's lock kept every other claimer out until the transaction ended.
   */
  public void discard(BucketConfig bucket, StoragePath prefix) {
    storage.open(bucket).deleteUnder(prefix);
  }

  private static StoragePath markerOf(StoragePath prefix) {
    return prefix.resolve(MARKER);
  }
}
