package io.floe.application.port.out.contract;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.floe.application.port.out.PrefixClaimStore;
import io.floe.domain.BucketConfig;
import io.floe.domain.PrefixClaim;
import io.floe.domain.PrefixClaim.OwnerKind;
import io.floe.domain.StoragePath;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * {@link PrefixClaimStore}: claims overlap segment-wise (equal, containing or contained, never
 * merely sharing characters); a prefix is claimed once per bucket; an owner's claims are released
 * together.
 */
public abstract class PrefixClaimStoreContract extends PortContract {
  private PrefixClaimStore claims() {
    return ports().claims();
  }

  private PrefixClaim claim(BucketConfig bucket, String path, OwnerKind kind, UUID owner) {
    PrefixClaim claim = new PrefixClaim(bucket.id(), new StoragePath(path),
        new PrefixClaim.Owner(kind, owner));
    claims().insert(claim);
    return claim;
  }

  private PrefixClaim claim(String path) {
    return claim(fixture.bucket, path, OwnerKind.NAMESPACE, UUID.randomUUID());
  }

  @Test
  void overlappingClaimsAreFoundSegmentWise() {
    PrefixClaim abc = claim("warehouse/ab_c");
    claim("warehouse/x%y");
    UUID bucket = fixture.bucket.id();
    assertThat(claims().overlapping(bucket, new StoragePath("warehouse/ab_c")))
        .containsExactly(abc);
    assertThat(claims().overlapping(bucket, new StoragePath("warehouse"))).hasSize(2);
    assertThat(claims().overlapping(bucket, StoragePath.root())).hasSize(2);
    assertThat(claims().overlapping(bucket, new StoragePath("warehouse/ab_c/t"))).hasSize(1);
    // Textual prefixes and LIKE wildcards are not overlaps.
    assertThat(claims().overlapping(bucket, new StoragePath("warehouse/ab_cd"))).isEmpty();
    assertThat(claims().overlapping(bucket, new StoragePath("warehouse/abXc"))).isEmpty();
    assertThat(claims().overlapping(bucket, new StoragePath("warehouse/xZy"))).isEmpty();
    assertThat(claims().overlapping(UUID.randomUUID(), new StoragePath("warehouse"))).isEmpty();
  }

  @Test
  void aPrefixIsClaimedOncePerBucket() {
    claim("taken");
    assertThatThrownBy(() -> claim("taken")).isInstanceOf(RuntimeException.class);
    BucketConfig other = fixture.bucket("other", false);
    claim(other, "taken", OwnerKind.REPO, UUID.randomUUID());
    assertThat(claims().overlapping(other.id(), new StoragePath("taken"))).hasSize(1);
  }

  @Test
  void anOwnersClaimsAreReleasedTogether() {
    UUID table = UUID.randomUUID();
    BucketConfig other = fixture.bucket("other", false);
    claim(fixture.bucket, "t1", OwnerKind.TABLE, table);
    claim(other, "t2", OwnerKind.TABLE, table);
    PrefixClaim kept = claim("kept");
    claims().releaseAllOf(table);
    assertThat(claims().overlapping(fixture.bucket.id(), StoragePath.root()))
        .containsExactly(kept);
    assertThat(claims().overlapping(other.id(), StoragePath.root())).isEmpty();
  }
}
