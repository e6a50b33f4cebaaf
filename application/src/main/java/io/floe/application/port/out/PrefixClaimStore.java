package io.floe.application.port.out;

import io.floe.domain.PrefixClaim;
import io.floe.domain.StoragePath;
import java.util.List;
import java.util.UUID;

/** Live prefix claims per bucket. Callers lock the bucket before checking and inserting. */
public interface PrefixClaimStore {
  /** The claims on {@code bucketId} that equal, contain or lie under {@code path}. */
  List<PrefixClaim> overlapping(UUID bucketId, StoragePath path);

  void insert(PrefixClaim claim);

  void releaseAllOf(UUID ownerId);
}
