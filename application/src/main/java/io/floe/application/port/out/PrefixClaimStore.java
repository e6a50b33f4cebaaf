package io.floe.application.port.out;

import io.floe.domain.PrefixClaim;
import io.floe.domain.StoragePath;
import java.util.List;
import java.util.UUID;

/** Live prefix claims per bucket. Callers lock the bucket before checking and inserting. */
public interface PrefixClaimStore {
  /**
   * The claims on {@code bucketId} that equal, contain or lie under {@code path}, segment-wise
   * ({@code a} neither contains nor lies under {@code ab}); under the bucket's root lie all.
   */
  List<PrefixClaim> overlapping(UUID bucketId, StoragePath path);

  /** Records the claim; a prefix already claimed on the bucket is refused with an exception. */
  void insert(PrefixClaim claim);

  void releaseAllOf(UUID ownerId);
}
