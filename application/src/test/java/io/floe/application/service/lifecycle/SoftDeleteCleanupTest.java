package io.floe.application.service.lifecycle;

import static io.floe.application.service.lifecycle.Lifecycles.bytes;
import static org.assertj.core.api.Assertions.assertThat;

import io.floe.application.model.DeleteCommand;
import io.floe.application.port.out.BucketStorage;
import io.floe.application.port.out.BucketStorageProvider;
import io.floe.application.port.out.LifecycleProbe;
import io.floe.application.port.out.NameRegistry;
import io.floe.application.port.out.PrefixClaimStore;
import io.floe.application.port.out.SoftDeleteStore.Deleted;
import io.floe.application.service.lifecycle.SoftDeleteCleanup.Tally;
import io.floe.application.testbed.Faults;
import io.floe.application.testbed.Testbed;
import io.floe.domain.BucketConfig;
import io.floe.domain.BucketCredentials;
import io.floe.domain.CatalogName;
import io.floe.domain.CatalogObject;
import io.floe.domain.Namespace;
import io.floe.domain.PrefixClaim;
import io.floe.domain.StorageLocation;
import io.floe.domain.StoragePath;
import io.floe.domain.StoragePlatform;
import io.floe.domain.TableName;
import io.floe.domain.Visibility;
import java.time.Duration;
import java.util.Optional;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * The cleanup of deleted namespaces, step by step: (1) the name is released, (2) the files are
 * deleted, (3) the claims are released and the row purged. A pass that fails or dies at any step
 * is finished by the next; a namespace under whose prefix a live table still has files is kept.
 */
class SoftDeleteCleanupTest {
  private static final Duration RECOVERY = Duration.ofDays(7);
  private static final RuntimeException BOOM = new IllegalStateException("boom");

  private final Testbed bed = new Testbed();
  private final Namespace ns = Lifecycles.createNamespace(bed, "Sales");
  private final BucketStorage files = bed.storage.open(bed.bucket);

  private SoftDeleteCleanup<Namespace> cleanup(NameRegistry names, PrefixClaimStore claims,
      BucketStorageProvider storage, LifecycleProbe probe) {
    DroppedTablePrefixes dropped = new DroppedTablePrefixes(bed.store.droppedTableClaims(),
        bed.store.namespaceLifecycle(), claims, bed.store.orgs(), storage);
    return new SoftDeleteCleanup<>(bed.store.namespaceDeletes(), new NamespaceCleanupSteps(
        bed.store.namespaceLifecycle(), bed.store.namespaces(), names, claims, bed.store.orgs(),
        storage, dropped), bed.store.unitOfWork(), bed.clock, probe);
  }

  private Tally runCleanup() {
    return cleanup(bed.store.names(), bed.store.claims(), bed.storage, LifecycleProbe.NONE)
        .run(Optional.empty());
  }

  private Tally runCleanupWithProbe(String failingStep) {
    return cleanup(bed.store.names(), bed.store.claims(), bed.storage, step -> {
      if (step.equals(failingStep)) {
        throw BOOM;
      }
    }).run(Optional.of(bed.org.id()));
  }

  private StoragePath file(String relative) {
    StoragePath key = ns.prefix().resolve(relative);
    files.put(key, bytes(relative));
    return key;
  }

  private void deleteAndWaitOut(DeleteCommand command) {
    bed.store.unitOfWork().inTransaction(() -> new SoftDeletion(bed.store.names(), bed.clock,
        RECOVERY).delete(bed.store.namespaceDeletes(), bed.org.id(), ns.id(), ns.name(),
        command));
    bed.clock.advance(RECOVERY);
  }

  private boolean prefixIsClaimed() {
    return !bed.store.claims().overlapping(bed.bucket.id(), ns.prefix()).isEmpty();
  }

  private Optional<Deleted<Namespace>> row() {
    return bed.store.namespaceDeletes().lockForCleanup(ns.id());
  }

  private void assertPurged() {
    assertThat(row()).isEmpty();
    assertThat(bed.nameIsHeld("sales")).isFalse();
    assertThat(prefixIsClaimed()).isFalse();
    assertThat(files.list(ns.prefix(), 10)).isEmpty();
  }

  @Test
  void aDueNamespaceIsEmptiedReleasedAndPurged() {
    file("t/data/1.parquet");
    file("t/metadata/00000.json");
    deleteAndWaitOut(DeleteCommand.SOFT);
    // The marker, and the two files.
    assertThat(runCleanup()).isEqualTo(new Tally(1, 0, 3, 0));
    assertPurged();
  }

  @Test
  void aNamespaceInItsRecoveryPeriodIsLeftAlone() {
    file("t/data/1.parquet");
    deleteAndWaitOut(DeleteCommand.SOFT);
    bed.clock.advance(Duration.ofSeconds(-1));
    assertThat(runCleanup()).isEqualTo(Tally.NONE);
    assertThat(bed.nameIsHeld("sales")).isTrue();
    assertThat(files.list(ns.prefix(), 10)).hasSize(2);
    assertThat(bed.store.namespaceLifecycle().lockRestorable(bed.org.id(), ns.name(),
        bed.clock.instant())).isPresent();
  }

  @Test
  void retainedDataOutlivesTheNamespace() {
    StoragePath kept = file("t/data/1.parquet");
    deleteAndWaitOut(new DeleteCommand(false, true));
    assertThat(runCleanup()).isEqualTo(new Tally(1, 0, 0, 0));
    assertThat(row()).isEmpty();
    assertThat(prefixIsClaimed()).isFalse();
    assertThat(files.exists(kept)).isTrue();
  }

  @Test
  void aNamespaceUnderWhosePrefixALiveTableHasFilesIsKeptUntilTheTableGoes() {
    StoragePath ownFile = file("t/data/1.parquet");
    StoragePath otherFile = file("old/data/2.parquet");
    // A table created here and then renamed into another namespace keeps its files here.
    Namespace away = bed.namespace("away", Visibility.PRIVATE);
    CatalogObject moved = new CatalogObject(bed.ids.newId(), ns.id(), new TableName("t"),
        CatalogObject.Kind.TABLE, "v0", new StorageLocation(bed.bucket.id(),
            ns.prefix().resolve("t")), false, bed.clock.instant(), bed.clock.instant());
    bed.store.objects().insert(moved);
    bed.store.objects().rename(moved.id(), away.id(), new TableName("t"), bed.clock.instant());
    deleteAndWaitOut(DeleteCommand.SOFT);

    assertThat(runCleanup()).isEqualTo(new Tally(0, 1, 1, 0));
    assertThat(files.exists(ownFile)).isTrue();
    assertThat(files.exists(otherFile)).isFalse();
    assertThat(files.exists(ns.prefix().resolve(PrefixClaimer.MARKER))).isTrue();
    assertThat(prefixIsClaimed()).isTrue();
    assertThat(bed.nameIsHeld("sales")).isFalse();
    assertThat(row().orElseThrow().nameReleased()).isTrue();

    bed.store.objects().delete(moved.id());
    assertThat(runCleanup()).isEqualTo(new Tally(1, 0, 2, 0));
    assertPurged();
  }

  @Test
  void aFailureReleasingTheNameRollsTheStepBackAndTheNextPassFinishes() {
    file("t/data/1.parquet");
    deleteAndWaitOut(DeleteCommand.SOFT);
    NameRegistry failing = Faults.failingOnce(NameRegistry.class, bed.store.names(), "release",
        BOOM);
    SoftDeleteCleanup<Namespace> cleanup = cleanup(failing, bed.store.claims(), bed.storage,
        LifecycleProbe.NONE);

    assertThat(cleanup.run(Optional.empty())).isEqualTo(new Tally(0, 0, 0, 1));
    assertThat(bed.nameIsHeld("sales")).isTrue();
    assertThat(row().orElseThrow().cleanupAttempts()).isZero();

    assertThat(cleanup.run(Optional.empty())).isEqualTo(new Tally(1, 0, 2, 0));
    assertPurged();
  }

  @Test
  void aPassThatDiesAfterReleasingTheNameIsFinishedByTheNext() {
    file("t/data/1.parquet");
    deleteAndWaitOut(DeleteCommand.SOFT);

    assertThat(runCleanupWithProbe("namespace-cleanup:started"))
        .isEqualTo(new Tally(0, 0, 0, 1));
    assertThat(bed.nameIsHeld("sales")).isFalse();
    assertThat(row().orElseThrow()).satisfies(deleted -> {
      assertThat(deleted.nameReleased()).isTrue();
      assertThat(deleted.cleanupAttempts()).isEqualTo(1);
    });
    assertThat(files.list(ns.prefix(), 10)).hasSize(2);

    assertThat(runCleanup()).isEqualTo(new Tally(1, 0, 2, 0));
    assertPurged();
  }

  @Test
  void aFailureDeletingTheFilesKeepsTheClaimAndTheNextPassFinishes() {
    file("t/data/1.parquet");
    deleteAndWaitOut(DeleteCommand.SOFT);
    BucketStorage failing = Faults.failingOnce(BucketStorage.class, files, "deleteUnder", BOOM);
    SoftDeleteCleanup<Namespace> cleanup = cleanup(bed.store.names(), bed.store.claims(),
        bucket -> failing, LifecycleProbe.NONE);

    assertThat(cleanup.run(Optional.empty())).isEqualTo(new Tally(0, 0, 0, 1));
    assertThat(files.list(ns.prefix(), 10)).hasSize(2);
    assertThat(prefixIsClaimed()).isTrue();

    assertThat(cleanup.run(Optional.empty())).isEqualTo(new Tally(1, 0, 2, 0));
    assertPurged();
  }

  @Test
  void aPassThatDiesAfterDeletingTheFilesIsFinishedByTheNext() {
    file("t/data/1.parquet");
    deleteAndWaitOut(DeleteCommand.SOFT);

    assertThat(runCleanupWithProbe("namespace-cleanup:emptied"))
        .isEqualTo(new Tally(0, 0, 0, 1));
    assertThat(files.list(ns.prefix(), 10)).isEmpty();
    assertThat(prefixIsClaimed()).isTrue();
    assertThat(row()).isPresent();

    assertThat(runCleanup()).isEqualTo(new Tally(1, 0, 0, 0));
    assertPurged();
  }

  @Test
  void aFailureReleasingTheClaimsKeepsTheRowAndTheNextPassFinishes() {
    file("t/data/1.parquet");
    deleteAndWaitOut(DeleteCommand.SOFT);
    PrefixClaimStore failing = Faults.failingOnce(PrefixClaimStore.class, bed.store.claims(),
        "releaseAllOf", BOOM);
    SoftDeleteCleanup<Namespace> cleanup = cleanup(bed.store.names(), failing, bed.storage,
        LifecycleProbe.NONE);

    assertThat(cleanup.run(Optional.empty())).isEqualTo(new Tally(0, 0, 0, 1));
    assertThat(prefixIsClaimed()).isTrue();
    assertThat(row()).isPresent();

    assertThat(cleanup.run(Optional.empty())).isEqualTo(new Tally(1, 0, 0, 0));
    assertPurged();
  }

  @Test
  void theOwnPrefixesOfTablesDroppedFromTheNamespaceGoWithIt() {
    BucketConfig other = new BucketConfig(bed.ids.newId(), bed.org.id(), new CatalogName("other"),
        StoragePlatform.S3, "other", StoragePath.root(), Optional.empty(), Optional.empty(),
        false, BucketCredentials.ambient(), false);
    bed.store.orgs().insertBucket(other);
    UUID tableId = bed.ids.newId();
    StoragePath own = new StoragePath("q9w8e7r6_sales.t");
    new PrefixClaimer(bed.store.orgs(), bed.store.claims(), bed.storage).claim(other,
        new PrefixClaim(other.id(), own, new PrefixClaim.Owner(PrefixClaim.OwnerKind.TABLE,
            tableId)), "{}");
    bed.storage.open(other).put(own.resolve("data/1.parquet"), bytes("rows"));
    bed.store.objects().insert(new CatalogObject(tableId, ns.id(), new TableName("t"),
        CatalogObject.Kind.TABLE, "v0", new StorageLocation(other.id(), own), true,
        bed.clock.instant(), bed.clock.instant()));
    bed.store.objects().delete(tableId);
    deleteAndWaitOut(DeleteCommand.SOFT);

    // The namespace's marker, and the table's marker and data file.
    assertThat(runCleanup()).isEqualTo(new Tally(1, 0, 3, 0));
    assertThat(bed.storage.open(other).list(own, 10)).isEmpty();
    assertThat(bed.store.claims().overlapping(other.id(), own)).isEmpty();
  }
}
