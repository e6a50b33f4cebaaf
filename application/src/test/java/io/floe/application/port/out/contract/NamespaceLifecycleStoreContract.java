package io.floe.application.port.out.contract;

import static org.assertj.core.api.Assertions.assertThat;

import io.floe.application.port.out.NamespaceLifecycleStore;
import io.floe.domain.CatalogName;
import io.floe.domain.CatalogObject;
import io.floe.domain.MetadataValue;
import io.floe.domain.Namespace;
import io.floe.domain.StorageLocation;
import io.floe.domain.StoragePath;
import io.floe.domain.TableName;
import io.floe.domain.Visibility;
import java.math.BigDecimal;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * {@link NamespaceLifecycleStore}: descriptions are saved whole; a deleted namespace is
 * restorable while it holds its name and its recovery period runs; the files a cleanup must keep
 * are those of any live table or view at or under a location, in whatever namespace it is.
 */
public abstract class NamespaceLifecycleStoreContract extends PortContract {
  private NamespaceLifecycleStore lifecycle() {
    return ports().namespaceLifecycle();
  }

  @Test
  void onlyLiveNamespacesAreLockedAsLive() {
    Namespace ns = fixture.namespace("Sales");
    assertThat(ports().unitOfWork().inTransaction(
        () -> lifecycle().lockLive(fixture.org.id(), new CatalogName("SALES")))).contains(ns);
    ports().namespaceDeletes().markDeleted(ns.id(), fixture.now, fixture.now.plusSeconds(60),
        false, false);
    assertThat(lifecycle().lockLive(fixture.org.id(), ns.name())).isEmpty();
  }

  @Test
  void aDescriptionIsSavedWithItsTypedMetadataAndVisibility() {
    Namespace ns = fixture.namespace("described");
    Map<String, MetadataValue> metadata = Map.of(
        "team", new MetadataValue.Text("data"),
        "tier", new MetadataValue.Number(new BigDecimal("2")),
        "pii", new MetadataValue.Bool(false),
        "owner", new MetadataValue.Null(),
        "tags", new MetadataValue.ListOf(List.of(new MetadataValue.Text("a"),
            new MetadataValue.Number(new BigDecimal("7")))));
    Namespace saved = lifecycle().saveDescription(ns.id(), Optional.of("Sales data"), metadata,
        Visibility.AUTHENTICATED_PUBLIC, fixture.now.plusSeconds(1));
    assertThat(saved.description()).contains("Sales data");
    assertThat(saved.metadata()).isEqualTo(metadata);
    assertThat(saved.visibility()).isEqualTo(Visibility.AUTHENTICATED_PUBLIC);
    assertThat(saved.updatedAt()).isEqualTo(fixture.now.plusSeconds(1));
    assertThat(ports().namespaces().findLive(fixture.org.id(), ns.name())).contains(saved);

    Namespace cleared = lifecycle().saveDescription(ns.id(), Optional.empty(), Map.of(),
        Visibility.PRIVATE, fixture.now.plusSeconds(2));
    assertThat(cleared.description()).isEmpty();
    assertThat(cleared.metadata()).isEmpty();
  }

  @Test
  void aDeletedNamespaceIsRestorableWhileItHoldsItsNameAndItsPeriodRuns() {
    Namespace ns = fixture.namespace("ghost");
    ports().namespaceDeletes().markDeleted(ns.id(), fixture.now, fixture.now.plusSeconds(3600),
        false, false);
    Namespace ghost = lifecycle().lockRestorable(fixture.org.id(), new CatalogName("GHOST"),
        fixture.now.plusSeconds(60)).orElseThrow();
    assertThat(ghost.id()).isEqualTo(ns.id());
    assertThat(ghost.deletedAt()).contains(fixture.now);
    assertThat(lifecycle().lockRestorable(fixture.org.id(), ns.name(),
        fixture.now.plusSeconds(3600))).isEmpty();
    ports().namespaceDeletes().markNameReleased(ns.id(), fixture.now.plusSeconds(1));
    assertThat(lifecycle().lockRestorable(fixture.org.id(), ns.name(),
        fixture.now.plusSeconds(60))).isEmpty();
  }

  @Test
  void aNamespaceDeletedWithItsNameIsNotRestorable() {
    Namespace ns = fixture.namespace("gone");
    ports().namespaceDeletes().markDeleted(ns.id(), fixture.now, fixture.now.plusSeconds(3600),
        false, true);
    assertThat(lifecycle().lockRestorable(fixture.org.id(), ns.name(), fixture.now)).isEmpty();
  }

  @Test
  void aRestoredNamespaceIsLiveAgain() {
    Namespace ns = fixture.namespace("back");
    ports().namespaceDeletes().markDeleted(ns.id(), fixture.now, fixture.now.plusSeconds(3600),
        true, false);
    Namespace restored = lifecycle().restore(ns.id(), fixture.now.plusSeconds(5));
    assertThat(restored.deletedAt()).isEmpty();
    assertThat(restored.updatedAt()).isEqualTo(fixture.now.plusSeconds(5));
    assertThat(ports().namespaces().findLive(fixture.org.id(), ns.name())).contains(restored);
    assertThat(ports().namespaceDeletes().lockForCleanup(ns.id())).isEmpty();
    assertThat(ports().namespaceDeletes().dueForCleanup(Optional.of(fixture.org.id()),
        fixture.now.plusSeconds(7200), 10)).doesNotContain(ns.id());
  }

  @Test
  void objectsWithinALocationAreFoundSegmentWiseInAnyNamespace() {
    Namespace home = fixture.namespace("home");
    Namespace away = fixture.namespace("away");
    CatalogObject stays = fixture.table(home, "t");
    CatalogObject renamed = fixture.view(home, "v");
    ports().objects().rename(renamed.id(), away.id(), new TableName("v2"), fixture.now);
    fixture.table(away, "w");
    StorageLocation prefix = new StorageLocation(fixture.bucket.id(), home.prefix());

    assertThat(lifecycle().objectsWithin(prefix))
        .containsExactlyInAnyOrder(stays.location(), renamed.location());
    assertThat(lifecycle().objectsWithin(stays.location())).containsExactly(stays.location());
    assertThat(lifecycle().objectsWithin(new StorageLocation(fixture.bucket.id(),
        StoragePath.root()))).hasSize(3);
    assertThat(lifecycle().objectsWithin(new StorageLocation(fixture.bucket.id(),
        new StoragePath(home.prefix().value() + "-sibling")))).isEmpty();
    assertThat(lifecycle().objectsWithin(new StorageLocation(fixture.bucket.id(),
        stays.location().path().resolve("data")))).isEmpty();
    assertThat(lifecycle().objectsWithin(new StorageLocation(UUID.randomUUID(),
        home.prefix()))).isEmpty();
  }
}
