package io.floe.application.port.out.contract;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.floe.application.port.out.UnitOfWork;
import io.floe.domain.CatalogName;
import io.floe.domain.Namespace;
import io.floe.domain.PrefixClaim;
import io.floe.domain.StoragePath;
import io.floe.domain.TableName;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * {@link UnitOfWork}: every store call made inside a unit commits together or not at all, whichever
 * ports made it; a nested unit joins the outer one, and when it fails on its own it rolls back
 * only what it did.
 */
public abstract class UnitOfWorkContract extends PortContract {
  private UnitOfWork unitOfWork() {
    return ports().unitOfWork();
  }

  @Test
  void aFailedUnitOfWorkLeavesNothingBehind() {
    Namespace ns = fixture.namespace("atomic");
    UUID owner = UUID.randomUUID();
    StoragePath prefix = new StoragePath("warehouse/atomic-" + owner);
    assertThatThrownBy(() -> unitOfWork().inTransaction(() -> {
      fixture.table(ns, "kept-nowhere");
      ports().names().reserve(fixture.org.id(), new CatalogName("atomic-name"),
          PrefixClaim.OwnerKind.REPO, owner);
      ports().claims().insert(new PrefixClaim(fixture.bucket.id(), prefix,
          new PrefixClaim.Owner(PrefixClaim.OwnerKind.REPO, owner)));
      fixture.namespace("atomic-too");
      throw new IllegalStateException("boom");
    })).hasMessage("boom");
    assertThat(ports().objects().find(fixture.org.id(), ns.name(), new TableName("kept-nowhere")))
        .isEmpty();
    assertThat(ports().names().reserve(fixture.org.id(), new CatalogName("atomic-name"),
        PrefixClaim.OwnerKind.REPO, UUID.randomUUID())).isEmpty();
    assertThat(ports().claims().overlapping(fixture.bucket.id(), prefix)).isEmpty();
    assertThat(ports().namespaces().findLive(fixture.org.id(), new CatalogName("atomic-too")))
        .isEmpty();
  }

  @Test
  void aFailedNestedUnitRollsBackOnlyItself() {
    Namespace ns = fixture.namespace("nested");
    unitOfWork().inTransaction(() -> {
      fixture.table(ns, "outer");
      try {
        unitOfWork().inTransaction(() -> {
          fixture.table(ns, "inner");
          throw new IllegalStateException("inner fails");
        });
      } catch (IllegalStateException expected) {
        // the outer unit carries on
      }
    });
    assertThat(ports().objects().find(fixture.org.id(), ns.name(), new TableName("outer")))
        .isPresent();
    assertThat(ports().objects().find(fixture.org.id(), ns.name(), new TableName("inner")))
        .isEmpty();
  }

  @Test
  void aNestedUnitThatSucceededRollsBackWithTheOuterOne() {
    Namespace ns = fixture.namespace("joined");
    assertThatThrownBy(() -> unitOfWork().inTransaction(() -> {
      unitOfWork().inTransaction(() -> fixture.table(ns, "inner"));
      throw new IllegalStateException("outer fails");
    })).hasMessage("outer fails");
    assertThat(ports().objects().find(fixture.org.id(), ns.name(), new TableName("inner")))
        .isEmpty();
  }

  @Test
  void aUnitReturnsWhatItsWorkReturnsAndKeepsItsWrites() {
    Namespace ns = fixture.namespace("kept");
    String result = unitOfWork().inTransaction(() -> {
      fixture.table(ns, "t");
      return "done";
    });
    assertThat(result).isEqualTo("done");
    assertThat(ports().objects().find(fixture.org.id(), ns.name(), new TableName("t")))
        .isPresent();
  }
}
