package io.floe.application.service.catalog;

import io.floe.application.model.AuditAction;
import io.floe.application.model.AuditTarget;
import io.floe.application.model.AuditedChange;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.floe.application.port.out.DatabaseUnavailableException;
import io.floe.application.port.out.IdempotencyStore;
import io.floe.application.port.out.MetadataPointers;
import io.floe.application.port.out.MetadataPointers.Key;
import io.floe.application.port.out.MetadataPointers.Move;
import io.floe.application.port.out.MetadataPointers.Row;
import io.floe.application.security.OrgContext;
import io.floe.application.service.catalog.CatalogCommitter.Plan;
import io.floe.application.service.catalog.CatalogCommitter.Swap;
import io.floe.application.testbed.Testbed;
import io.floe.domain.CatalogObject;
import io.floe.domain.Namespace;
import io.floe.domain.Visibility;
import java.sql.SQLException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.FutureTask;
import java.util.concurrent.TimeUnit;
import org.apache.iceberg.exceptions.CommitFailedException;
import org.junit.jupiter.api.Test;

/**
 * The one committer: a plan that lost its race to another writer is planned again on the new
 * state; an attempt moves every pointer or none; after repeated lost races the change is planned
 * under the objects' locks, where nobody can overtake it.
 */
class CatalogCommitterTest {
  private static final AuditedChange COMMIT =
      AuditedChange.of(AuditAction.TABLE_COMMIT, AuditTarget.Kind.TABLE, "ns.t");

  private final Testbed bed = new Testbed();
  private final List<List<Key>> locked = new ArrayList<>();
  private final CatalogCommitter committer = new CatalogCommitter(recordingLocks(),
      bed.store.unitOfWork(), bed.publisher(), bed.clock);
  private final Namespace ns = bed.namespace("ns", Visibility.PRIVATE);
  private final CatalogObject a = bed.entry(ns, "a", "a0");
  private final CatalogObject b = bed.entry(ns, "b", "b0");

  /** The fake's pointers, remembering which objects a committer locked. */
  private MetadataPointers recordingLocks() {
    MetadataPointers pointers = bed.store.pointers();
    return new MetadataPointers() {
      @Override
      public Optional<String> current(Key key) {
        return pointers.current(key);
      }

      @Override
      public boolean swap(List<Move> moves, Instant now) {
        return pointers.swap(moves, now);
      }

      @Override
      public void lockForCommit(Collection<Key> keys) {
        locked.add(List.copyOf(keys));
        pointers.lockForCommit(keys);
      }
    };
  }

  private String pointer(CatalogObject table) {
    return bed.pointer(ns, table);
  }

  /** Another writer gets in first and moves the pointer on. */
  private void rivalMoves(CatalogObject table, String to) {
    assertThat(bed.store.pointers().swap(List.of(Move.of(new Row(table.id()), pointer(table), to)),
        bed.clock.instant())).isTrue();
  }

  @Test
  void aPlanNobodyOvertakesLandsOnItsFirstAttempt() {
    List<String> planned = new ArrayList<>();
    String result = committer.commit(bed.admin, "table a", () -> {
      String current = pointer(a);
      planned.add(current);
      return new Plan<>(List.of(new Swap(new Row(a.id()), current, "a1", COMMIT)),
          "planned on " + current);
    });
    assertThat(result).isEqualTo("planned on a0");
    assertThat(planned).containsExactly("a0");
    assertThat(pointer(a)).isEqualTo("a1");
    assertThat(locked).isEmpty();
  }

  @Test
  void aCommitCutOffFromTheDatabaseBeforeItCommittedIsTriedOnceMore() {
    List<String> planned = new ArrayList<>();
    String result = committer.commit(bed.admin, "table a", () -> {
      planned.add(pointer(a));
      if (planned.size() == 1) {
        throw new DatabaseUnavailableException(new SQLException("terminated", "57P01"));
      }
      return new Plan<>(List.of(new Swap(new Row(a.id()), pointer(a), "a1", COMMIT)), "landed");
    });
    assertThat(result).isEqualTo("landed");
    assertThat(planned).hasSize(2);
    assertThat(pointer(a)).isEqualTo("a1");
  }

  @Test
  void aCommitCutOffTwiceIsTheCallersToRetry() {
    List<String> planned = new ArrayList<>();
    assertThatThrownBy(() -> committer.commit(bed.admin, "table a", () -> {
      planned.add(pointer(a));
      throw new DatabaseUnavailableException(new SQLException("refused", "08001"));
    })).isInstanceOf(DatabaseUnavailableException.class);
    assertThat(planned).hasSize(2);
    assertThat(pointer(a)).isEqualTo("a0");
  }

  @Test
  void aLostRaceIsPlannedAgainOnTheNewState() {
    List<String> planned = new ArrayList<>();
    String result = committer.commit(bed.admin, "table a", () -> {
      String current = pointer(a);
      planned.add(current);
      if (planned.size() == 1) {
        rivalMoves(a, "rival"); // after this plan read the pointer: the plan is stale
      }
      return new Plan<>(
          List.of(new Swap(new Row(a.id()), current, "mine-" + planned.size(), COMMIT)),
          "planned on " + current);
    });
    assertThat(planned).containsExactly("a0", "rival");
    assertThat(result).isEqualTo("planned on rival");
    assertThat(pointer(a)).isEqualTo("mine-2");
  }

  @Test
  void anAttemptMovesEveryPointerOrNone() {
    List<String> seenOfA = new ArrayList<>();
    committer.commit(bed.admin, "tables a and b", () -> {
      String currentA = pointer(a);
      String currentB = pointer(b);
      seenOfA.add(currentA);
      if (seenOfA.size() == 1) {
        rivalMoves(b, "rival"); // a's swap will land, then b's will lose
      }
      int attempt = seenOfA.size();
      return new Plan<>(List.of(new Swap(new Row(a.id()), currentA, "a" + attempt, COMMIT),
          new Swap(new Row(b.id()), currentB, "b" + attempt, COMMIT)), null);
    });
    // The second plan found a where it was: the first attempt's swap of a rolled back.
    assertThat(seenOfA).containsExactly("a0", "a0");
    assertThat(pointer(a)).isEqualTo("a2");
    assertThat(pointer(b)).isEqualTo("b2");
  }

  @Test
  void afterRepeatedLostRacesTheChangeIsPlannedUnderLocksAndNobodyOvertakesIt() throws Exception {
    List<Boolean> plannedInTransaction = new ArrayList<>();
    List<FutureTask<Boolean>> lateRival = new ArrayList<>();
    String result = committer.commit(bed.admin, "table a", () -> {
      String current = pointer(a);
      plannedInTransaction.add(bed.store.unitOfWork().inTransaction());
      int attempt = plannedInTransaction.size();
      if (attempt <= CatalogCommitter.OPTIMISTIC_ATTEMPTS) {
        rivalMoves(a, "rival-" + attempt);
      } else {
        // Now a rival must wait for this commit, and then finds the pointer moved.
        FutureTask<Boolean> rival = new FutureTask<>(() -> bed.store.pointers().swap(
            List.of(Move.of(new Row(a.id()), current, "late-rival")), bed.clock.instant()));
        new Thread(rival, "late-rival").start();
        lateRival.add(rival);
      }
      return new Plan<>(List.of(new Swap(new Row(a.id()), current, "mine-" + attempt, COMMIT)),
          current);
    });
    assertThat(plannedInTransaction).containsExactly(false, false, false, true);
    assertThat(locked).containsExactly(List.of(new Row(a.id())));
    assertThat(result).isEqualTo("rival-3");
    assertThat(lateRival.get(0).get(60, TimeUnit.SECONDS)).isFalse();
    assertThat(pointer(a)).isEqualTo("mine-4");
  }

  @Test
  void underTheLocksAWriterThatTakesNoneIsStillOvertakenAFewTimes() {
    List<String> planned = new ArrayList<>();
    int overtaken = CatalogCommitter.OPTIMISTIC_ATTEMPTS + CatalogCommitter.LOCKED_ATTEMPTS - 1;
    String result = committer.commit(bed.admin, "table a", () -> {
      String current = pointer(a);
      planned.add(current);
      if (planned.size() <= overtaken) {
        // A writer outside Floe (Python icechunk on a branch) ignores the locks.
        rivalMoves(a, "outside-" + planned.size());
      }
      return new Plan<>(List.of(new Swap(new Row(a.id()), current, "mine", COMMIT)), current);
    });
    assertThat(planned).hasSize(overtaken + 1);
    assertThat(result).isEqualTo("outside-" + overtaken);
    assertThat(pointer(a)).isEqualTo("mine");
  }

  @Test
  void aChangeOvertakenEveryTimeUnderTheLocksTooFailsAsAConflict() {
    int[] attempts = {0};
    assertThatThrownBy(() -> committer.commit(bed.admin, "table a", () -> {
      attempts[0]++;
      String current = pointer(a);
      rivalMoves(a, "outside-" + attempts[0]);
      return new Plan<>(List.of(new Swap(new Row(a.id()), current, "mine", COMMIT)), null);
    })).isInstanceOf(CommitFailedException.class).hasMessageContaining("kept changing");
    assertThat(attempts[0])
        .isEqualTo(CatalogCommitter.OPTIMISTIC_ATTEMPTS + CatalogCommitter.LOCKED_ATTEMPTS);
    assertThat(pointer(a)).startsWith("outside-");
  }

  @Test
  void aChangeWhoseObjectsChangedMeanwhileFailsUnderTheLocks() {
    int[] attempt = {0};
    assertThatThrownBy(() -> committer.commit(bed.admin, "table a", () -> {
      attempt[0]++;
      // From the fourth plan on, the name resolves to another object (dropped and re-created).
      CatalogObject target = attempt[0] <= CatalogCommitter.OPTIMISTIC_ATTEMPTS ? a : b;
      String current = pointer(target);
      if (target == a) {
        rivalMoves(a, "rival-" + attempt[0]);
      }
      return new Plan<>(List.of(new Swap(new Row(target.id()), current, "mine", COMMIT)), null);
    })).isInstanceOf(CommitFailedException.class).hasMessageContaining("changed while");
    assertThat(pointer(b)).isEqualTo("b0");
  }

  @Test
  void theResultOfTheAttemptThatLandedIsRecordedForTheKey() {
    OrgContext keyed = Testbed.withKey(bed.admin, "key-1", "POST /tables/a 1f2e");
    List<String> planned = new ArrayList<>();
    String result = committer.commit(keyed, "table a", () -> {
      String current = pointer(a);
      planned.add(current);
      if (planned.size() == 1) {
        rivalMoves(a, "rival");
      }
      return new Plan<>(List.of(new Swap(new Row(a.id()), current, "mine", COMMIT)),
          "planned on " + current);
    });
    IdempotencyStore.Recorded recorded = bed.store.idempotency().find(bed.org.id(),
        bed.admin.caller().principal().id(), "key-1", bed.clock.instant()).orElseThrow();
    assertThat(recorded.requestFingerprint()).isEqualTo("POST /tables/a 1f2e");
    assertThat(bed.codec.decode(recorded.result(), String.class))
        .isEqualTo(result).isEqualTo("planned on rival");
  }

  @Test
  void aPlanThatChangesNothingMovesNothingAndIsStillRecorded() {
    OrgContext keyed = Testbed.withKey(bed.admin, "key-2", "POST /tables/a 0000");
    String result = committer.commit(keyed, "table a",
        () -> new Plan<>(List.of(), "unchanged"));
    assertThat(result).isEqualTo("unchanged");
    assertThat(pointer(a)).isEqualTo("a0");
    assertThat(bed.store.idempotency().find(bed.org.id(), bed.admin.caller().principal().id(),
        "key-2", bed.clock.instant())).isPresent();
  }
}
