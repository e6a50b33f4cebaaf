package io.floe.application.service.lifecycle;

import static io.floe.application.service.lifecycle.Lifecycles.bytes;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.floe.application.model.DeleteCommand;
import io.floe.application.port.in.lifecycle.RunCleanupUseCase.CleanupReport;
import io.floe.application.port.out.BucketStorage;
import io.floe.application.port.out.LifecycleProbe;
import io.floe.application.port.out.inmemory.InMemoryServerWideLocks;
import io.floe.application.testbed.Testbed;
import io.floe.domain.CatalogName;
import io.floe.domain.Namespace;
import io.floe.domain.PrefixClaim;
import io.floe.domain.Repo;
import io.floe.domain.Role;
import io.floe.domain.StorageLocation;
import io.floe.domain.StoragePath;
import java.time.Duration;
import java.util.HashSet;
import java.util.Optional;
import java.util.Set;
import org.apache.iceberg.exceptions.ForbiddenException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The whole cleanup pass as the server wires it: creations a crash left half done are undone
 * once older than the grace period, deleted namespaces and repos are purged once their recovery
 * period has passed, and everything younger or alive is left as it was. A pass is idempotent, a
 * pass that dies half way is finished by the next, and passes never overlap.
 */
class CleanupPassTest {
  private static final Duration RECOVERY = Duration.ofDays(7);
  private static final CleanupReport NOTHING = new CleanupReport(0, 0, 0, 0, 0, 0);

  /** A crash of the server at a step: an Error, so nothing on the way catches it. */
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
  private final InMemoryServerWideLocks locks = new InMemoryServerWideLocks();
  private final BucketStorage files = bed.storage.open(bed.bucket);
  private final SoftDeletion deletion = new SoftDeletion(bed.store.names(), bed.clock, RECOVERY);
  private final CleanupPass pass = new CleanupPass(bed.creationRepair(),
      new SoftDeleteCleanup<>(bed.store.namespaceDeletes(), new NamespaceCleanupSteps(
          bed.store.namespaceLifecycle(), bed.store.namespaces(), bed.store.names(),
          bed.store.claims(), bed.store.orgs(), bed.storage, new DroppedTablePrefixes(
              bed.store.droppedTableClaims(), bed.store.namespaceLifecycle(), bed.store.claims(),
              bed.store.orgs(), bed.storage)), bed.store.unitOfWork(), bed.clock, probe),
      new SoftDeleteCleanup<>(bed.store.repoDeletes(), new RepoCleanupSteps(bed.store.names(),
          bed.store.claims(), bed.store.orgs(), bed.storage), bed.store.unitOfWork(), bed.clock,
          probe),
      bed.policy(), bed.clock, locks);

  private Namespace namespace(String name) {
    Namespace ns = Lifecycles.createNamespace(bed, name);
    files.put(ns.prefix().resolve("t/data/1.parquet"), bytes("rows"));
    return ns;
  }

  private void deleteNamespace(Namespace ns) {
    bed.store.unitOfWork().inTransaction(() -> deletion.delete(bed.store.namespaceDeletes(),
        bed.org.id(), ns.id(), ns.name(), DeleteCommand.SOFT));
  }

  private Repo repo(String name, String prefix) {
    Repo repo = new Repo(bed.ids.newId(), bed.org.id(), new CatalogName(name),
        new StorageLocation(bed.bucket.id(), new StoragePath(prefix)), Optional.empty(),
        bed.clock.instant(), Optional.empty());
    bed.prefixOwnerCreation(probe).create(bed.admin, new PrefixOwnerCreation.NewOwner(
            new PrefixClaim.Owner(PrefixClaim.OwnerKind.REPO, repo.id()), repo.orgId(),
            repo.name(), bed.bucket, repo.location().path(), repo.createdAt(), true),
        () -> files.put(repo.location().path().resolve("repo"), bytes("icechunk")),
        () -> bed.store.repos().insert(repo), null);
    return repo;
  }

  private void deleteRepo(Repo repo) {
    bed.store.unitOfWork().inTransaction(() -> deletion.delete(bed.store.repoDeletes(),
        bed.org.id(), repo.id(), repo.name(), DeleteCommand.SOFT));
  }

  /** A repo creation that died after writing its marker and repository, before its row. */
  private StoragePath crashedCreation() {
    crashAt.add("repo-create:initialized");
    assertThatThrownBy(() -> repo("halfway", "h1h2h3h4_halfway"))
        .isInstanceOf(SimulatedCrash.class);
    crashAt.clear();
    return new StoragePath("h1h2h3h4_halfway");
  }

  private boolean claimed(StoragePath prefix) {
    return !bed.store.claims().overlapping(bed.bucket.id(), prefix).isEmpty();
  }

  @Test
  void aPassUndoesOldCreationsAndPurgesWhatIsDueAndLeavesTheRest() {
    Namespace gone = namespace("gone");
    Namespace live = namespace("live");
    Repo goneRepo = repo("arrays", "a1b2c3d4_arrays");
    Repo liveRepo = repo("kept", "k1k2k3k4_kept");
    StoragePath halfway = crashedCreation();
    deleteNamespace(gone);
    deleteRepo(goneRepo);
    bed.clock.advance(RECOVERY);

    CleanupReport report = pass.run(Optional.empty());

    // The namespace's marker and file, the repo's marker and repository.
    assertThat(report).isEqualTo(new CleanupReport(1, 1, 4, 0, 0, 1));
    assertThat(files.list(gone.prefix(), 10)).isEmpty();
    assertThat(claimed(gone.prefix())).isFalse();
    assertThat(bed.nameIsHeld("gone")).isFalse();
    assertThat(files.list(goneRepo.location().path(), 10)).isEmpty();
    assertThat(bed.store.repos().findLive(bed.org.id(), goneRepo.name())).isEmpty();
    assertThat(bed.nameIsHeld("arrays")).isFalse();
    assertThat(files.list(halfway, 10)).isEmpty();
    assertThat(claimed(halfway)).isFalse();
    assertThat(bed.nameIsHeld("halfway")).isFalse();
    // What is alive keeps its files, claims and names.
    assertThat(files.list(live.prefix(), 10)).hasSize(2);
    assertThat(claimed(live.prefix())).isTrue();
    assertThat(bed.nameIsHeld("live")).isTrue();
    assertThat(files.list(liveRepo.location().path(), 10)).hasSize(2);
    assertThat(bed.store.repos().findLive(bed.org.id(), liveRepo.name())).isPresent();
  }

  @Test
  void withinTheRecoveryPeriodAndTheCreationGraceNothingIsTouched() {
    Namespace gone = namespace("gone");
    Repo goneRepo = repo("arrays", "a1b2c3d4_arrays");
    StoragePath halfway = crashedCreation();
    deleteNamespace(gone);
    deleteRepo(goneRepo);
    bed.clock.advance(CleanupPass.CREATION_GRACE.minusSeconds(1));

    assertThat(pass.run(Optional.empty())).isEqualTo(NOTHING);
    assertThat(files.list(gone.prefix(), 10)).hasSize(2);
    assertThat(bed.nameIsHeld("gone")).isTrue();
    assertThat(files.list(goneRepo.location().path(), 10)).hasSize(2);
    assertThat(claimed(halfway)).isTrue();
    assertThat(bed.nameIsHeld("halfway")).isTrue();

    // Past the grace the creation is undone; the deletions wait out their recovery period.
    bed.clock.advance(Duration.ofSeconds(2));
    assertThat(pass.run(Optional.empty())).isEqualTo(new CleanupReport(1, 0, 0, 0, 0, 0));
    bed.clock.advance(RECOVERY.minus(CleanupPass.CREATION_GRACE).minusSeconds(2));
    assertThat(pass.run(Optional.empty())).isEqualTo(NOTHING);
    assertThat(bed.nameIsHeld("gone")).isTrue();
  }

  @Test
  void aSecondPassFindsNothingLeftToDo() {
    deleteNamespace(namespace("gone"));
    deleteRepo(repo("arrays", "a1b2c3d4_arrays"));
    crashedCreation();
    bed.clock.advance(RECOVERY);

    assertThat(pass.run(Optional.empty())).isEqualTo(new CleanupReport(1, 1, 4, 0, 0, 1));
    assertThat(pass.run(Optional.empty())).isEqualTo(NOTHING);
    assertThat(pass.runFor(bed.admin)).isEqualTo(NOTHING);
  }

  @Test
  @Timeout(30) // a lock the dead pass kept would make the next one wait for ever
  void aPassThatDiesHalfWayIsFinishedByTheNext() {
    Namespace gone = namespace("gone");
    Repo goneRepo = repo("arrays", "a1b2c3d4_arrays");
    deleteNamespace(gone);
    deleteRepo(goneRepo);
    bed.clock.advance(RECOVERY);

    crashAt.add("namespace-cleanup:started");
    assertThatThrownBy(() -> pass.run(Optional.empty())).isInstanceOf(SimulatedCrash.class);
    crashAt.clear();

    // The server died in the namespace's cleanup: its files and claim are there, and the repo,
    // whose turn had not come, too.
    assertThat(files.list(gone.prefix(), 10)).hasSize(2);
    assertThat(claimed(gone.prefix())).isTrue();
    assertThat(files.list(goneRepo.location().path(), 10)).hasSize(2);

    // The lock died with the pass; the next one finishes both.
    assertThat(pass.run(Optional.empty())).isEqualTo(new CleanupReport(0, 1, 4, 0, 0, 1));
    assertThat(files.list(gone.prefix(), 10)).isEmpty();
    assertThat(claimed(gone.prefix())).isFalse();
    assertThat(bed.nameIsHeld("gone")).isFalse();
    assertThat(files.list(goneRepo.location().path(), 10)).isEmpty();
    assertThat(pass.run(Optional.empty())).isEqualTo(NOTHING);
  }

  @Test
  void aNamespaceStepThatFailsIsCountedAndTheRestOfThePassGoesOn() {
    Namespace gone = namespace("gone");
    Repo goneRepo = repo("arrays", "a1b2c3d4_arrays");
    deleteNamespace(gone);
    deleteRepo(goneRepo);
    bed.clock.advance(RECOVERY);
    LifecycleProbe failing = step -> {
      if (step.equals("namespace-cleanup:started")) {
        throw new IllegalStateException("the bucket did not answer");
      }
    };
    CleanupPass flaky = new CleanupPass(bed.creationRepair(),
        new SoftDeleteCleanup<>(bed.store.namespaceDeletes(), new NamespaceCleanupSteps(
            bed.store.namespaceLifecycle(), bed.store.namespaces(), bed.store.names(),
            bed.store.claims(), bed.store.orgs(), bed.storage, new DroppedTablePrefixes(
                bed.store.droppedTableClaims(), bed.store.namespaceLifecycle(),
                bed.store.claims(), bed.store.orgs(), bed.storage)), bed.store.unitOfWork(),
            bed.clock, failing),
        new SoftDeleteCleanup<>(bed.store.repoDeletes(), new RepoCleanupSteps(
            bed.store.names(), bed.store.claims(), bed.store.orgs(), bed.storage),
            bed.store.unitOfWork(), bed.clock, LifecycleProbe.NONE),
        bed.policy(), bed.clock, locks);

    assertThat(flaky.run(Optional.empty())).isEqualTo(new CleanupReport(0, 0, 2, 0, 1, 1));
    assertThat(files.list(gone.prefix(), 10)).hasSize(2);
    assertThat(files.list(goneRepo.location().path(), 10)).isEmpty();

    assertThat(pass.run(Optional.empty())).isEqualTo(new CleanupReport(0, 1, 2, 0, 0, 0));
    assertThat(files.list(gone.prefix(), 10)).isEmpty();
  }

  @Test
  void onlyAnAdminRunsAPassOnDemand() {
    Namespace gone = namespace("gone");
    deleteNamespace(gone);
    bed.clock.advance(RECOVERY);

    assertThatThrownBy(() -> pass.runFor(bed.member("max", Role.MEMBER)))
        .isInstanceOf(ForbiddenException.class);
    assertThat(files.list(gone.prefix(), 10)).hasSize(2);

    assertThat(pass.runFor(bed.admin).namespacesPurged()).isEqualTo(1);
  }

  @Test
  void thePeriodicPassSkipsWhileAnotherRunsAndRunsOnceItIsDone() {
    Namespace gone = namespace("gone");
    deleteNamespace(gone);
    bed.clock.advance(RECOVERY);

    locks.holdElsewhere("cleanup-pass");
    assertThat(pass.runUnlessRunning()).isEmpty();
    assertThat(files.list(gone.prefix(), 10)).hasSize(2);

    locks.release("cleanup-pass");
    assertThat(pass.runUnlessRunning()).hasValueSatisfying(report ->
        assertThat(report.namespacesPurged()).isEqualTo(1));
  }
}
