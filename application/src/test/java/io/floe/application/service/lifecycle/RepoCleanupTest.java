package io.floe.application.service.lifecycle;

import static io.floe.application.service.lifecycle.Lifecycles.bytes;
import static org.assertj.core.api.Assertions.assertThat;

import io.floe.application.model.DeleteCommand;
import io.floe.application.port.out.BucketStorage;
import io.floe.application.port.out.LifecycleProbe;
import io.floe.application.service.lifecycle.SoftDeleteCleanup.Tally;
import io.floe.application.testbed.Testbed;
import io.floe.domain.CatalogName;
import io.floe.domain.PrefixClaim;
import io.floe.domain.Repo;
import io.floe.domain.StorageLocation;
import io.floe.domain.StoragePath;
import java.time.Duration;
import java.util.Optional;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * The cleanup of deleted repos: the repository's files, claim and row go; the name is released
 * only while the deleted repo still holds it, never from whoever took it since.
 */
class RepoCleanupTest {
  private final Testbed bed = new Testbed();
  private final PrefixOwnerCreation creation = Lifecycles.creation(bed, LifecycleProbe.NONE);
  private final SoftDeleteCleanup<Repo> cleanup = new SoftDeleteCleanup<>(
      bed.store.repoDeletes(), new RepoCleanupSteps(bed.store.names(), bed.store.claims(),
          bed.store.orgs(), bed.storage), bed.store.unitOfWork(), bed.clock, LifecycleProbe.NONE);
  private final SoftDeletion deletion = new SoftDeletion(bed.store.names(), bed.clock,
      Duration.ofDays(7));
  private final BucketStorage files = bed.storage.open(bed.bucket);

  private Repo create(String prefix) {
    Repo repo = new Repo(bed.ids.newId(), bed.org.id(), new CatalogName("arrays"),
        new StorageLocation(bed.bucket.id(), new StoragePath(prefix)), Optional.empty(),
        bed.clock.instant(), Optional.empty());
    creation.create(bed.admin, new PrefixOwnerCreation.NewOwner(
            new PrefixClaim.Owner(PrefixClaim.OwnerKind.REPO, repo.id()), repo.orgId(),
            repo.name(), bed.bucket, repo.location().path(), repo.createdAt(), true),
        () -> files.put(repo.location().path().resolve("repo"), bytes("icechunk")),
        () -> bed.store.repos().insert(repo), null);
    return repo;
  }

  private void delete(Repo repo, DeleteCommand command) {
    bed.store.unitOfWork().inTransaction(() -> deletion.delete(bed.store.repoDeletes(),
        bed.org.id(), repo.id(), repo.name(), command));
  }

  @Test
  void aDueRepoLosesItsFilesClaimNameAndRow() {
    Repo repo = create("a1b2c3d4_arrays");
    delete(repo, DeleteCommand.SOFT);
    bed.clock.advance(Duration.ofDays(7));
    assertThat(cleanup.run(Optional.empty())).isEqualTo(new Tally(1, 0, 2, 0));
    assertThat(files.list(repo.location().path(), 10)).isEmpty();
    assertThat(bed.store.claims().overlapping(bed.bucket.id(), repo.location().path()))
        .isEmpty();
    assertThat(bed.nameIsHeld("arrays")).isFalse();
    assertThat(bed.store.repoDeletes().lockForCleanup(repo.id())).isEmpty();
  }

  @Test
  void theNameOfARepoDeletedAtOnceStaysWithTheRepoThatTookItSince() {
    Repo old = create("a1b2c3d4_arrays");
    delete(old, new DeleteCommand(true, false));
    Repo successor = create("e5f6g7h8_arrays");
    assertThat(cleanup.run(Optional.empty())).isEqualTo(new Tally(1, 0, 2, 0));
    assertThat(files.list(old.location().path(), 10)).isEmpty();
    assertThat(files.list(successor.location().path(), 10)).hasSize(2);
    assertThat(holderOfTheName()).isEqualTo(successor.id());
  }

  @Test
  void aRepoWhoseNameWentWithoutARecordDoesNotFreeItsSuccessorsName() {
    // Deleted before releases were recorded: the name went at once, the row does not say so.
    Repo old = create("a1b2c3d4_arrays");
    bed.store.repoDeletes().markDeleted(old.id(), bed.clock.instant(), bed.clock.instant(),
        false, false);
    bed.store.names().release(bed.org.id(), old.name());
    Repo successor = create("e5f6g7h8_arrays");
    assertThat(cleanup.run(Optional.empty())).isEqualTo(new Tally(1, 0, 2, 0));
    assertThat(holderOfTheName()).isEqualTo(successor.id());
  }

  private UUID holderOfTheName() {
    return bed.store.names().reserve(bed.org.id(), new CatalogName("arrays"),
        PrefixClaim.OwnerKind.NAMESPACE, bed.ids.newId()).orElseThrow().ownerId();
  }
}
