package io.floe.application.service.lifecycle;

import static io.floe.application.service.lifecycle.Lifecycles.bytes;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.floe.application.port.out.BucketStorage;
import io.floe.application.port.out.LifecycleProbe;
import io.floe.application.security.OrgContext;
import io.floe.application.service.lifecycle.PrefixOwnerCreation.NewOwner;
import io.floe.application.testbed.Testbed;
import io.floe.domain.CatalogName;
import io.floe.domain.PrefixClaim;
import io.floe.domain.Repo;
import io.floe.domain.StorageLocation;
import io.floe.domain.StoragePath;
import java.time.Duration;
import java.util.HashSet;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import org.apache.iceberg.exceptions.AlreadyExistsException;
import org.apache.iceberg.exceptions.CommitStateUnknownException;
import org.junit.jupiter.api.Test;

/**
 * The crash-safe creation of a prefix owner (here a repo): it leaves a whole owner, or nothing
 * once repaired. A failure is undone at once; a crash leaves the journal to the repair pass, which
 * waits until the creation is old enough that it cannot still be running.
 */
class PrefixOwnerCreationTest {
  /** Stops the creation where a killed server would: nothing after it runs, no catch block. */
  static final class SimulatedCrash extends Error {
    SimulatedCrash(String step) {
      super("crash at " + step);
    }
  }

  private final Testbed bed = new Testbed();
  private final Set<String> crashAt = new HashSet<>();
  private final LifecycleProbe probe = step -> {
    if (crashAt.contains(step)) {
      throw new SimulatedCrash(step);
    }
  };
  private final PrefixOwnerCreation creation = Lifecycles.creation(bed, probe);
  private final CreationRepair repair = Lifecycles.repair(bed);
  private final BucketStorage files = bed.storage.open(bed.bucket);
  private final Repo repo = new Repo(bed.ids.newId(), bed.org.id(), new CatalogName("Arrays"),
      new StorageLocation(bed.bucket.id(), new StoragePath("x1y2z3w4_arrays")), Optional.empty(),
      bed.clock.instant(), Optional.empty());
  private final NewOwner owner = new NewOwner(
      new PrefixClaim.Owner(PrefixClaim.OwnerKind.REPO, repo.id()), repo.orgId(), repo.name(),
      bed.bucket, repo.location().path(), repo.createdAt(), true);
  /** What the owner writes under its prefix besides the marker. */
  private final Runnable initialize = () ->
      files.put(prefix().resolve("repo"), bytes("icechunk repository"));

  private StoragePath prefix() {
    return repo.location().path();
  }

  private void create(OrgContext context, Runnable init, Runnable insert) {
    creation.create(context, owner, init, insert, "created");
  }

  private void create() {
    create(bed.admin, initialize, () -> bed.store.repos().insert(repo));
  }

  private boolean prefixIsClaimed() {
    return !bed.store.claims().overlapping(bed.bucket.id(), prefix()).isEmpty();
  }

  private boolean journaled() {
    return bed.store.pendingCreations().lock(repo.id()).isPresent();
  }

  private void assertNothingIsLeft() {
    assertThat(bed.store.repos().findLive(bed.org.id(), repo.name())).isEmpty();
    assertThat(bed.nameIsHeld("arrays")).isFalse();
    assertThat(prefixIsClaimed()).isFalse();
    assertThat(files.list(prefix(), 10)).isEmpty();
    assertThat(journaled()).isFalse();
  }

  @Test
  void aCreationLeavesItsRowNameClaimAndMarkerAndNoJournal() {
    create(Testbed.withKey(bed.admin, "key-1", "POST /repos 77"), initialize,
        () -> bed.store.repos().insert(repo));
    assertThat(bed.store.repos().findLive(bed.org.id(), new CatalogName("ARRAYS"))).contains(repo);
    assertThat(bed.nameIsHeld("arrays")).isTrue();
    assertThat(prefixIsClaimed()).isTrue();
    assertThat(files.list(prefix(), 10)).containsExactly(
        prefix().resolve(PrefixClaimer.MARKER), prefix().resolve("repo"));
    assertThat(journaled()).isFalse();
    assertThat(bed.store.idempotency().find(bed.org.id(), bed.admin.caller().principal().id(),
        "key-1", bed.clock.instant())).isPresent();
  }

  @Test
  void aFailureWhileInitializingIsUndoneAtOnce() {
    assertThatThrownBy(() -> create(bed.admin, () -> {
      initialize.run();
      throw new IllegalStateException("the repository could not be written");
    }, () -> bed.store.repos().insert(repo))).hasMessageContaining("could not be written");
    assertNothingIsLeft();
  }

  @Test
  void aFailureOfTheLastStepIsUndoneAndLeavesNoIdempotencyRecord() {
    OrgContext keyed = Testbed.withKey(bed.admin, "key-1", "POST /repos 77");
    assertThatThrownBy(() -> create(keyed, initialize, () -> {
      throw new IllegalStateException("the row could not be inserted");
    })).hasMessageContaining("could not be inserted");
    assertNothingIsLeft();
    assertThat(bed.store.idempotency().find(bed.org.id(), bed.admin.caller().principal().id(),
        "key-1", bed.clock.instant())).isEmpty();
  }

  @Test
  void aCrashLeavesTheJournalWhichTheRepairPassUndoesOnceTheCreationIsOld() {
    crashAt.add("repo-create:initialized");
    assertThatThrownBy(this::create).isInstanceOf(SimulatedCrash.class);
    assertThat(journaled()).isTrue();
    assertThat(bed.nameIsHeld("arrays")).isTrue();
    assertThat(prefixIsClaimed()).isTrue();
    assertThat(files.list(prefix(), 10)).hasSize(2);

    // A creation this young may still be running on another server: left alone.
    assertThat(repair.repairStartedBefore(bed.clock.instant().minus(CleanupPass.CREATION_GRACE)))
        .isZero();
    assertThat(journaled()).isTrue();

    bed.clock.advance(CleanupPass.CREATION_GRACE.plus(Duration.ofSeconds(1)));
    assertThat(repair.repairStartedBefore(bed.clock.instant().minus(CleanupPass.CREATION_GRACE)))
        .isEqualTo(1);
    assertNothingIsLeft();
  }

  @Test
  void aCrashBeforeTheMarkerLeavesOnlyTheClaimAndNameToRepair() {
    crashAt.add("repo-create:claimed");
    assertThatThrownBy(this::create).isInstanceOf(SimulatedCrash.class);
    assertThat(files.list(prefix(), 10)).isEmpty();
    assertThat(prefixIsClaimed()).isTrue();
    assertThat(repair.repairStartedBefore(bed.clock.instant().plusSeconds(1))).isEqualTo(1);
    assertNothingIsLeft();
  }

  @Test
  void aCreationARepairUndidMeanwhileFailsAndLeavesNothing() {
    assertThatThrownBy(() -> create(bed.admin, () -> {
      initialize.run();
      // A repair pass that thought this creation dead gets there first.
      repair.repairStartedBefore(bed.clock.instant().plusSeconds(1));
    }, () -> bed.store.repos().insert(repo))).isInstanceOf(CommitStateUnknownException.class);
    assertNothingIsLeft();
  }

  @Test
  void aTakenNameIsRefusedBeforeAnythingIsWritten() {
    UUID holder = UUID.randomUUID();
    bed.store.names().reserve(bed.org.id(), new CatalogName("ARRAYS"),
        PrefixClaim.OwnerKind.NAMESPACE, holder);
    assertThatThrownBy(this::create).isInstanceOf(AlreadyExistsException.class)
        .hasMessageContaining("namespace");
    assertThat(prefixIsClaimed()).isFalse();
    assertThat(files.list(prefix(), 10)).isEmpty();
    assertThat(journaled()).isFalse();
  }

  @Test
  void aPrefixThatHoldsAnythingIsRefusedAndTheNameIsNotKept() {
    files.put(prefix().resolve("stray"), bytes("someone else's"));
    assertThatThrownBy(this::create).isInstanceOf(AlreadyExistsException.class)
        .hasMessageContaining("not empty");
    assertThat(bed.nameIsHeld("arrays")).isFalse();
    assertThat(prefixIsClaimed()).isFalse();
    assertThat(files.list(prefix(), 10)).containsExactly(prefix().resolve("stray"));
  }
}
