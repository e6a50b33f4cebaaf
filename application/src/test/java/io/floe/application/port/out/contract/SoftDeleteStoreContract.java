package io.floe.application.port.out.contract;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.floe.application.port.out.SoftDeleteStore;
import io.floe.application.port.out.SoftDeleteStore.Deleted;
import java.time.Instant;
import java.util.Optional;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * {@link SoftDeleteStore}, for one kind of prefix owner: a delete hides a live owner and makes it
 * due once its recovery period has passed; each cleanup step is recorded; a purge removes the
 * owner; a cleanup pass skips an owner another pass holds.
 *
 * @param <T> the owner
 */
public abstract class SoftDeleteStoreContract<T> extends PortContract {
  protected abstract SoftDeleteStore<T> store();

  /** A new live owner in the fixture's org. */
  protected abstract T newOwner(String name);

  protected abstract UUID id(T owner);

  /** The owner as its kind's store finds it by name while it is live. */
  protected abstract Optional<T> findLive(T owner);

  /** The owner as it reads once deleted at {@code deletedAt}. */
  protected abstract T deleted(T owner, Instant deletedAt);

  @Test
  void aDeleteHidesTheOwnerUntilItIsDueForCleanup() {
    T owner = newOwner("doomed");
    Instant purgeAfter = fixture.now.plusSeconds(3600);
    store().markDeleted(id(owner), fixture.now, purgeAfter, true, false);

    assertThat(findLive(owner)).isEmpty();
    assertThat(store().dueForCleanup(Optional.of(fixture.org.id()), purgeAfter.minusSeconds(1),
        10)).isEmpty();
    assertThat(store().dueForCleanup(Optional.of(fixture.org.id()), purgeAfter, 10))
        .containsExactly(id(owner));
    assertThat(store().lockForCleanup(id(owner))).contains(
        new Deleted<>(deleted(owner, fixture.now), purgeAfter, true, false, 0));
  }

  @Test
  void aSecondDeleteChangesNothing() {
    T owner = newOwner("once");
    store().markDeleted(id(owner), fixture.now, fixture.now.plusSeconds(60), false, false);
    store().markDeleted(id(owner), fixture.now.plusSeconds(5), fixture.now.plusSeconds(5), true,
        true);
    assertThat(store().lockForCleanup(id(owner))).contains(new Deleted<>(
        deleted(owner, fixture.now), fixture.now.plusSeconds(60), false, false, 0));
  }

  @Test
  void anOwnerDeletedWithItsNameSaysSo() {
    T owner = newOwner("nameless");
    store().markDeleted(id(owner), fixture.now, fixture.now, false, true);
    assertThat(store().lockForCleanup(id(owner)).orElseThrow().nameReleased()).isTrue();
  }

  @Test
  void onlyDeletedOwnersAreLockedForCleanup() {
    T owner = newOwner("alive");
    assertThat(store().lockForCleanup(id(owner))).isEmpty();
    assertThat(store().lockForCleanup(UUID.randomUUID())).isEmpty();
  }

  @Test
  void dueOwnersComeByPurgeTimePerOrgOrAcrossOrgs() {
    T late = newOwner("late");
    T early = newOwner("early");
    T middle = newOwner("middle");
    store().markDeleted(id(late), fixture.now, fixture.now.plusSeconds(30), false, false);
    store().markDeleted(id(early), fixture.now, fixture.now.plusSeconds(10), false, false);
    store().markDeleted(id(middle), fixture.now, fixture.now.plusSeconds(20), false, false);
    Instant later = fixture.now.plusSeconds(40);

    assertThat(store().dueForCleanup(Optional.of(fixture.org.id()), later, 10))
        .containsExactly(id(early), id(middle), id(late));
    assertThat(store().dueForCleanup(Optional.of(fixture.org.id()), later, 2))
        .containsExactly(id(early), id(middle));
    assertThat(store().dueForCleanup(Optional.of(fixture.newOrg().id()), later, 10)).isEmpty();
    assertThat(store().dueForCleanup(Optional.empty(), later, Integer.MAX_VALUE))
        .contains(id(early), id(middle), id(late));
  }

  @Test
  void eachCleanupStepIsRecorded() {
    T owner = newOwner("stepwise");
    store().markDeleted(id(owner), fixture.now, fixture.now, false, false);
    store().markNameReleased(id(owner), fixture.now.plusSeconds(1));
    store().recordCleanupAttempt(id(owner), fixture.now.plusSeconds(1));
    store().recordCleanupProgress(id(owner), 12, Optional.of("storage timed out"),
        fixture.now.plusSeconds(2));
    store().recordCleanupAttempt(id(owner), fixture.now.plusSeconds(3));
    store().recordCleanupProgress(id(owner), 3, Optional.empty(), fixture.now.plusSeconds(4));

    Deleted<T> deleted = store().lockForCleanup(id(owner)).orElseThrow();
    assertThat(deleted.nameReleased()).isTrue();
    assertThat(deleted.cleanupAttempts()).isEqualTo(2);
    assertThat(deleted.purgeAfter()).isEqualTo(fixture.now);
  }

  @Test
  void aPurgedOwnerIsGone() {
    T owner = newOwner("purged");
    store().markDeleted(id(owner), fixture.now, fixture.now, false, true);
    store().purge(id(owner));
    assertThat(store().lockForCleanup(id(owner))).isEmpty();
    assertThat(store().dueForCleanup(Optional.of(fixture.org.id()), fixture.now, 10)).isEmpty();
  }

  @Test
  void aPassSkipsAnOwnerAnotherPassHolds() {
    assumeTrue(ports().locksRows(), "this backend serializes whole transactions");
    T owner = newOwner("held");
    store().markDeleted(id(owner), fixture.now, fixture.now, false, false);
    Optional<Deleted<T>> seenByOther = ports().unitOfWork().inTransaction(() -> {
      assertThat(store().lockForCleanup(id(owner))).isPresent();
      // The other pass answers at once, while this one still holds the owner.
      return Concurrently.result(Concurrently.start(() ->
          ports().unitOfWork().inTransaction(() -> store().lockForCleanup(id(owner)))));
    });
    assertThat(seenByOther).isEmpty();
    assertThat(store().lockForCleanup(id(owner))).isPresent();
  }
}
