package io.floe.application.service.lifecycle;

import io.floe.application.port.out.BucketStorageProvider;
import io.floe.application.port.out.DroppedTableClaimStore;
import io.floe.application.port.out.NamespaceLifecycleStore;
import io.floe.application.port.out.OrgStore;
import io.floe.application.port.out.PrefixClaimStore;
import io.floe.domain.BucketConfig;
import io.floe.domain.PrefixClaim;
import io.floe.domain.StorageLocation;
import java.util.List;
import java.util.UUID;

/**
 * The prefixes of tables that had one of their own and were dropped from a namespace: part of that
 * namespace's cleanup, which empties them (unless its data is retained) and then releases them.
 * A prefix under which some live table or view has files is neither emptied nor released: the
 * files of live tables are never deleted, wherever they are catalogued. Both steps are safe to
 * repeat.
 */
public final class DroppedTablePrefixes {
  private final DroppedTableClaimStore dropped;
  private final NamespaceLifecycleStore catalog;
  private final PrefixClaimStore claims;
  private final OrgStore orgs;
  private final BucketStorageProvider storage;

  public DroppedTablePrefixes(DroppedTableClaimStore dropped, NamespaceLifecycleStore catalog,
      PrefixClaimStore claims, OrgStore orgs, BucketStorageProvider storage) {
    this.dropped = dropped;
    this.catalog = catalog;
    this.claims = claims;
    this.orgs = orgs;
    this.storage = storage;
  }

  /** Deletes the files under each free prefix of tables dropped from the namespace. */
  long empty(UUID namespaceId) {
    long removed = 0;
    for (PrefixClaim claim : free(namespaceId)) {
      BucketConfig bucket = orgs.bucket(claim.bucketId()).orElseThrow(() ->
          new IllegalStateException("bucket of a dropped table's prefix vanished"));
      removed += storage.open(bucket).deleteUnder(claim.path());
    }
    return removed;
  }

  /** Releases the free prefixes; runs in the transaction that purges the namespace. */
  void release(UUID namespaceId) {
    free(namespaceId).forEach(claim -> claims.releaseAllOf(claim.owner().id()));
  }

  private List<PrefixClaim> free(UUID namespaceId) {
    return dropped.droppedFrom(namespaceId).stream()
        .filter(claim -> catalog.objectsWithin(new StorageLocation(claim.bucketId(),
            claim.path())).isEmpty())
        .toList();
  }
}
