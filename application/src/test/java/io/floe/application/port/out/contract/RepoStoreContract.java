package io.floe.application.port.out.contract;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.floe.application.port.out.RepoStore;
import io.floe.application.port.out.RepoStore.DeletedRepo;
import io.floe.domain.CatalogName;
import io.floe.domain.Repo;
import java.time.Instant;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * {@link RepoStore}: one live repo per name in an org, compared case-insensitively; a deleted repo
 * is restorable until its recovery period ends, the most recently deleted one of a name first.
 */
public abstract class RepoStoreContract extends PortContract {
  private RepoStore repos() {
    return ports().repos();
  }

  private void delete(Repo repo, Instant at, Instant purgeAfter) {
    ports().repoDeletes().markDeleted(repo.id(), at, purgeAfter, false, false);
  }

  private static Repo deletedAt(Repo repo, Instant at) {
    return new Repo(repo.id(), repo.orgId(), repo.name(), repo.location(), repo.description(),
        repo.createdAt(), Optional.of(at));
  }

  @Test
  void aRepoIsFoundByItsNameInAnyCaseInItsOrgOnly() {
    Repo repo = fixture.repo("Arrays");
    assertThat(repos().findLive(fixture.org.id(), new CatalogName("ARRAYS"))).contains(repo);
    assertThat(repos().findLive(fixture.newOrg().id(), new CatalogName("arrays"))).isEmpty();
  }

  @Test
  void liveReposAreListedByName() {
    Repo zarr = fixture.repo("zarr");
    Repo arrays = fixture.repo("arrays");
    Repo gone = fixture.repo("gone");
    delete(gone, fixture.now, fixture.now.plusSeconds(60));
    assertThat(repos().listLive(fixture.org.id())).containsExactly(arrays, zarr);
  }

  @Test
  void aLiveNameIsTakenOnceWhateverItsCase() {
    Repo first = fixture.repo("Arrays");
    assertThatThrownBy(() -> fixture.repo("ARRAYS")).isInstanceOf(RuntimeException.class);
    delete(first, fixture.now, fixture.now.plusSeconds(60));
    Repo second = fixture.repo("arrays");
    assertThat(repos().findLive(fixture.org.id(), new CatalogName("arrays"))).contains(second);
  }

  @Test
  void aDeletedRepoIsRestorableUntilItsPeriodEnds() {
    Repo repo = fixture.repo("arrays");
    Instant until = fixture.now.plusSeconds(60);
    delete(repo, fixture.now, until);
    DeletedRepo deleted = new DeletedRepo(deletedAt(repo, fixture.now), until);
    assertThat(repos().findLive(fixture.org.id(), repo.name())).isEmpty();
    assertThat(repos().listRestorable(fixture.org.id(), fixture.now)).containsExactly(deleted);
    assertThat(repos().findRestorable(fixture.org.id(), new CatalogName("ARRAYS"), fixture.now))
        .contains(deleted);
    assertThat(repos().listRestorable(fixture.org.id(), until)).isEmpty();
    assertThat(repos().findRestorable(fixture.org.id(), repo.name(), until)).isEmpty();
  }

  @Test
  void theMostRecentlyDeletedRepoOfANameIsTheOneRestored() {
    Repo older = fixture.repo("arrays");
    delete(older, fixture.now, fixture.now.plusSeconds(600));
    Repo newer = fixture.repo("arrays");
    delete(newer, fixture.now.plusSeconds(10), fixture.now.plusSeconds(600));
    Repo other = fixture.repo("blobs");
    delete(other, fixture.now.plusSeconds(20), fixture.now.plusSeconds(600));

    assertThat(repos().findRestorable(fixture.org.id(), newer.name(), fixture.now.plusSeconds(30))
        .orElseThrow().repo().id()).isEqualTo(newer.id());
    assertThat(repos().listRestorable(fixture.org.id(), fixture.now.plusSeconds(30)))
        .extracting(deleted -> deleted.repo().id())
        .containsExactly(newer.id(), older.id(), other.id());
  }

  @Test
  void aRestoredRepoIsLiveAgain() {
    Repo repo = fixture.repo("arrays");
    delete(repo, fixture.now, fixture.now.plusSeconds(60));
    repos().markRestored(repo.id());
    assertThat(repos().findLive(fixture.org.id(), repo.name())).contains(repo);
    assertThat(repos().listRestorable(fixture.org.id(), fixture.now)).isEmpty();
    assertThat(ports().repoDeletes().lockForCleanup(repo.id())).isEmpty();
  }
}
