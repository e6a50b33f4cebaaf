package io.floe.application.port.out.contract;

import static org.assertj.core.api.Assertions.assertThat;

import io.floe.application.port.out.DroppedTableClaimStore;
import io.floe.domain.BucketConfig;
import io.floe.domain.CatalogObject;
import io.floe.domain.Namespace;
import io.floe.domain.PrefixClaim;
import io.floe.domain.StorageLocation;
import io.floe.domain.StoragePath;
import org.junit.jupiter.api.Test;

/**
 * {@link DroppedTableClaimStore}: a table with a prefix of its own keeps its claim when dropped,
 * recorded under the namespace it was dropped from, until the claim is released.
 */
public abstract class DroppedTableClaimStoreContract extends PortContract {
  private DroppedTableClaimStore dropped() {
    return ports().droppedTableClaims();
  }

  /** A table whose files are under a prefix of its own on another bucket, claimed. */
  private PrefixClaim ownPrefixTable(Namespace ns, BucketConfig elsewhere, String name) {
    CatalogObject row = fixture.objectRow(ns, name, CatalogObject.Kind.TABLE, "v0");
    StoragePath prefix = new StoragePath("own_" + row.id());
    ports().objects().insert(new CatalogObject(row.id(), ns.id(), row.name(), row.kind(), "v0",
        new StorageLocation(elsewhere.id(), prefix), true, fixture.now, fixture.now));
    PrefixClaim claim = new PrefixClaim(elsewhere.id(), prefix,
        new PrefixClaim.Owner(PrefixClaim.OwnerKind.TABLE, row.id()));
    ports().claims().insert(claim);
    return claim;
  }

  @Test
  void aDroppedTablesClaimStaysUnderTheNamespaceItLeft() {
    Namespace ns = fixture.namespace("ns");
    Namespace neighbour = fixture.namespace("neighbour");
    BucketConfig elsewhere = fixture.bucket("elsewhere", false);
    PrefixClaim claim = ownPrefixTable(ns, elsewhere, "t");
    assertThat(dropped().droppedFrom(ns.id())).isEmpty();

    ports().objects().delete(claim.owner().id());

    assertThat(dropped().droppedFrom(ns.id())).containsExactly(claim);
    assertThat(dropped().droppedFrom(neighbour.id())).isEmpty();
    assertThat(ports().claims().overlapping(elsewhere.id(), claim.path()))
        .containsExactly(claim);
  }

  @Test
  void aReleasedClaimIsNoLongerListed() {
    Namespace ns = fixture.namespace("ns");
    PrefixClaim claim = ownPrefixTable(ns, fixture.bucket("elsewhere", false), "t");
    ports().objects().delete(claim.owner().id());
    ports().claims().releaseAllOf(claim.owner().id());
    assertThat(dropped().droppedFrom(ns.id())).isEmpty();
  }

  @Test
  void aTableWithoutAPrefixOfItsOwnLeavesNoClaim() {
    Namespace ns = fixture.namespace("ns");
    ports().objects().delete(fixture.table(ns, "t").id());
    assertThat(dropped().droppedFrom(ns.id())).isEmpty();
  }
}
