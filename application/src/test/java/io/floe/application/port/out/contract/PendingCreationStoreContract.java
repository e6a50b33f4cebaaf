package io.floe.application.port.out.contract;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.floe.application.port.out.PendingCreationStore;
import io.floe.application.port.out.PendingCreationStore.Pending;
import io.floe.domain.CatalogName;
import io.floe.domain.PrefixClaim.OwnerKind;
import io.floe.domain.StoragePath;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * {@link PendingCreationStore}: a creation stays journaled until it finishes (once); the journal
 * keeps the name's key, all a repair needs; unfinished creations come oldest first, and a repair
 * pass skips one whose creator holds it.
 */
public abstract class PendingCreationStoreContract extends PortContract {
  /** Journaled long ago, so that no other test's creation is older. */
  private static final Instant LONG_AGO = Instant.parse("2001-01-01T00:00:00Z");
  private final List<UUID> journaled = new ArrayList<>();

  private PendingCreationStore pending() {
    return ports().pendingCreations();
  }

  private Pending journal(String name, Instant startedAt) {
    Pending creation = new Pending(UUID.randomUUID(), fixture.org.id(), OwnerKind.REPO,
        new CatalogName(name), fixture.bucket.id(), new StoragePath("warehouse/" + name),
        startedAt);
    pending().record(creation);
    journaled.add(creation.ownerId());
    return creation;
  }

  /** The journal is global: leave nothing for another test's repair to find. */
  @AfterEach
  void finishEverything() {
    journaled.forEach(pending()::finish);
  }

  @Test
  void aCreationIsJournaledUntilItFinishesOnce() {
    Pending creation = journal("obs", fixture.now);
    assertThat(pending().lock(creation.ownerId())).contains(creation);
    assertThat(pending().finish(creation.ownerId())).isTrue();
    assertThat(pending().finish(creation.ownerId())).isFalse();
    assertThat(pending().lock(creation.ownerId())).isEmpty();
  }

  @Test
  void theJournalKeepsTheNamesKey() {
    Pending creation = journal("Mixed-Case", fixture.now);
    assertThat(pending().lock(creation.ownerId()).orElseThrow().name())
        .isEqualTo(new CatalogName("mixed-case"));
  }

  @Test
  void anOwnerIsJournaledOnce() {
    Pending creation = journal("once", fixture.now);
    assertThatThrownBy(() -> pending().record(creation)).isInstanceOf(RuntimeException.class);
  }

  @Test
  void unfinishedCreationsComeOldestFirst() {
    Pending second = journal("second", LONG_AGO.plusSeconds(20));
    Pending first = journal("first", LONG_AGO.plusSeconds(10));
    journal("recent", fixture.now);

    assertThat(pending().lockStartedBefore(LONG_AGO.plusSeconds(30), 10))
        .containsExactly(first, second);
    assertThat(pending().lockStartedBefore(LONG_AGO.plusSeconds(30), 1)).containsExactly(first);
    assertThat(pending().lockStartedBefore(LONG_AGO.plusSeconds(10), 10)).isEmpty();
  }

  @Test
  void aRepairSkipsACreationItsCreatorHolds() {
    assumeTrue(ports().locksRows(), "this backend serializes whole transactions");
    Pending held = journal("held", LONG_AGO);
    List<Pending> seenByRepair = ports().unitOfWork().inTransaction(() -> {
      assertThat(pending().lock(held.ownerId())).isPresent();
      return Concurrently.result(Concurrently.start(() -> ports().unitOfWork().inTransaction(
          () -> pending().lockStartedBefore(LONG_AGO.plusSeconds(1), 10))));
    });
    assertThat(seenByRepair).isEmpty();
  }
}
