package io.floe.application.port.out.contract;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.floe.application.model.FeedPosition;
import io.floe.application.model.MaintenanceJob;
import io.floe.application.model.MaintenancePolicy;
import io.floe.application.model.MaintenanceJob.State;
import io.floe.application.model.MaintenanceJob.Step;
import io.floe.application.model.MaintenanceTable;
import io.floe.application.port.out.MaintenanceJobStore;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * {@link MaintenanceJobStore}: the feed's cursor moves once per page, so a page two replicas
 * read counts once; a table is planned when clients committed and has at most one open job; a
 * job is claimed by one replica at a time until its lease expires, and only its holder ends it; a
 * failed attempt waits out its back-off.
 */
public abstract class MaintenanceJobStoreContract extends PortContract {
  private static final Duration LEASE = Duration.ofMinutes(2);
  /** Long ago, so that the jobs of a test are due before anything left by another. */
  private static final Instant T0 = Instant.parse("2001-01-01T00:00:00Z");
  private static final Instant FAR_FUTURE = Instant.parse("2999-01-01T00:00:00Z");

  private MaintenanceJobStore jobs() {
    return ports().maintenanceJobs();
  }

  /** Jobs are claimed across orgs: end every job a test left, so the next one starts clean. */
  @AfterEach
  void endEveryJob() {
    for (Optional<MaintenanceJob> job = jobs().claim("cleanup", FAR_FUTURE, LEASE);
        job.isPresent(); job = jobs().claim("cleanup", FAR_FUTURE, LEASE)) {
      jobs().finish(job.get().id(), "cleanup", State.SKIPPED, "test over",
          MaintenanceTable.Observed.NOTHING, FAR_FUTURE);
    }
  }

  private static MaintenanceTable.Activity commits(String name, int commits, long files,
      long size) {
    return new MaintenanceTable.Activity("sales", name, commits, commits, commits,
        OptionalLong.of(files), OptionalLong.of(size));
  }

  private List<MaintenanceTable> mine() {
    return jobs().toPlan(1000).stream()
        .filter(table -> table.orgId().equals(fixture.org.id())).toList();
  }

  private MaintenanceJob planned(String name, Instant at) {
    assertThat(jobs().record(fixture.org.id(), jobs().feedRead(fixture.org.id()),
        new FeedPosition(at.getEpochSecond(), 1, at), List.of(commits(name, 3, 3, 300)), at))
        .isTrue();
    return jobs().plan(fixture.org.id(), "sales", name, Set.of(Step.COMPACT), "small files", at)
        .orElseThrow();
  }

  @Test
  void aPageOfTheFeedCountsOnceAndTheLatestTotalsWin() {
    UUID org = fixture.org.id();
    assertThat(jobs().feedRead(org)).isEqualTo(FeedPosition.START);
    FeedPosition first = new FeedPosition(10, 1, fixture.now);
    FeedPosition second = new FeedPosition(12, 7, fixture.now);
    assertThat(jobs().record(org, FeedPosition.START, first,
        List.of(commits("Orders", 2, 2, 200)), fixture.now)).isTrue();
    assertThat(jobs().record(org, FeedPosition.START, first,
        List.of(commits("Orders", 2, 2, 200)), fixture.now))
        .as("another replica read the same page").isFalse();
    assertThat(jobs().record(org, first, second, List.of(commits("orders", 3, 5, 500),
        new MaintenanceTable.Activity("sales", "ORDERS", 0, 0, 0, OptionalLong.of(1),
            OptionalLong.of(480))), fixture.now)).isTrue();
    assertThat(jobs().feedRead(org)).isEqualTo(second);

    assertThat(mine()).singleElement().satisfies(table -> {
      assertThat(table.key()).isEqualTo("sales.orders");
      assertThat(table.snapshots()).isEqualTo(5);
      assertThat(table.dataManifests()).isEqualTo(5);
      assertThat(table.commitsSinceOrphanRemoval()).isEqualTo(5);
      assertThat(table.totalDataFiles()).hasValue(1);
      assertThat(table.totalFilesSize()).hasValue(480);
    });
  }

  @Test
  void onlyClientCommitsMakeATableWantPlanning() {
    UUID org = fixture.org.id();
    jobs().record(org, FeedPosition.START, new FeedPosition(3, 1, fixture.now),
        List.of(new MaintenanceTable.Activity("sales", "own", 0, 0, 0, OptionalLong.of(1),
            OptionalLong.of(10))), fixture.now);
    assertThat(mine()).isEmpty();
  }

  @Test
  void aJobKeepsTheExecutorItWasPlannedForThroughClaimRetryAndEnd() {
    assertThat(planned("orders", T0).executor()).isEqualTo(MaintenancePolicy.IN_PROCESS);
    jobs().record(fixture.org.id(), jobs().feedRead(fixture.org.id()),
        new FeedPosition(T0.getEpochSecond() + 5, 1, T0), List.of(commits("events", 3, 3, 300)),
        T0);
    MaintenanceJob spark = jobs().plan(fixture.org.id(), "sales", "events",
        Set.of(Step.COMPACT), "small files", MaintenancePolicy.SPARK, T0).orElseThrow();
    assertThat(spark.executor()).isEqualTo(MaintenancePolicy.SPARK);
    MaintenanceJob claimed = jobs().claim("a", T0.plusSeconds(1), LEASE).orElseThrow();
    MaintenanceJob other = jobs().claim("a", T0.plusSeconds(1), LEASE).orElseThrow();
    MaintenanceJob sparkJob = claimed.id() == spark.id() ? claimed : other;
    assertThat(sparkJob.executor()).isEqualTo(MaintenancePolicy.SPARK);
    assertThat(jobs().retry(sparkJob.id(), "a", "spark-submit exited with 1", T0.plusSeconds(2)))
        .isTrue();
    MaintenanceJob again = jobs().claim("a", T0.plusSeconds(3), LEASE).orElseThrow();
    assertThat(again.id()).isEqualTo(spark.id());
    assertThat(jobs().finish(again.id(), "a", State.SUCCEEDED, "spark: done",
        MaintenanceTable.Observed.NOTHING, T0.plusSeconds(4))).isTrue();
    assertThat(jobs().jobs(fixture.org.id(), "sales.events", 10)).singleElement()
        .satisfies(ended -> {
          assertThat(ended.executor()).isEqualTo(MaintenancePolicy.SPARK);
          assertThat(ended.state()).isEqualTo(State.SUCCEEDED);
        });
  }

  @Test
  void aTableHasAtMostOneOpenJobAndIsPlannedAgainOnlyAfterNewCommits() {
    MaintenanceJob job = planned("orders", T0);
    assertThat(job.state()).isEqualTo(State.PENDING);
    assertThat(job.steps()).containsExactly(Step.COMPACT);
    assertThat(mine()).as("planned: not dirty, and it has an open job").isEmpty();
    assertThat(jobs().plan(fixture.org.id(), "sales", "orders", Set.of(Step.EXPIRE_SNAPSHOTS),
        "again", T0)).as("one open job per table").isEmpty();

    jobs().record(fixture.org.id(), jobs().feedRead(fixture.org.id()),
        new FeedPosition(T0.getEpochSecond() + 1, 1, T0), List.of(commits("orders", 1, 4, 400)),
        T0);
    assertThat(mine()).as("dirty, but its job is still open").isEmpty();
    MaintenanceJob claimed = jobs().claim("a", T0.plusSeconds(1), LEASE).orElseThrow();
    assertThat(jobs().finish(claimed.id(), "a", State.SUCCEEDED, "done",
        new MaintenanceTable.Observed(Optional.of(1), Optional.empty(), true), T0.plusSeconds(2)))
        .isTrue();
    assertThat(mine()).singleElement().satisfies(table -> {
      assertThat(table.snapshots()).as("what expiry left").isEqualTo(1);
      assertThat(table.commitsSinceOrphanRemoval()).isZero();
      assertThat(table.orphansRemovedAt()).contains(T0.plusSeconds(2));
    });
    assertThat(jobs().plan(fixture.org.id(), "sales", "orders", Set.of(), "nothing needed",
        T0.plusSeconds(3))).isEmpty();
    assertThat(mine()).isEmpty();
    assertThat(jobs().jobs(fixture.org.id(), "sales.orders", 10)).singleElement()
        .satisfies(ended -> {
          assertThat(ended.state()).isEqualTo(State.SUCCEEDED);
          assertThat(ended.outcome()).contains("done");
          assertThat(ended.finishedAt()).contains(T0.plusSeconds(2));
        });
  }

  @Test
  void aJobIsHeldByOneReplicaUntilItsLeaseExpires() {
    MaintenanceJob job = planned("leased", T0);
    MaintenanceJob first = jobs().claim("replica-a", T0.plusSeconds(1), LEASE).orElseThrow();
    assertThat(first.id()).isEqualTo(job.id());
    assertThat(first.state()).isEqualTo(State.RUNNING);
    assertThat(first.attempts()).isEqualTo(1);
    assertThat(first.leaseOwner()).contains("replica-a");
    assertThat(jobs().claim("replica-b", T0.plusSeconds(2), LEASE)).isEmpty();
    assertThat(jobs().renew(job.id(), "replica-b", T0.plus(LEASE).plusSeconds(60))).isFalse();
    assertThat(jobs().renew(job.id(), "replica-a", T0.plus(LEASE).plusSeconds(60))).isTrue();
    assertThat(jobs().claim("replica-b", T0.plus(LEASE).plusSeconds(30), LEASE))
        .as("renewed: still replica-a's").isEmpty();

    // replica-a died: its lease ran out, and replica-b takes the job over.
    Instant expired = T0.plus(LEASE).plusSeconds(61);
    MaintenanceJob takenOver = jobs().claim("replica-b", expired, LEASE).orElseThrow();
    assertThat(takenOver.id()).isEqualTo(job.id());
    assertThat(takenOver.attempts()).isEqualTo(2);
    assertThat(takenOver.leaseOwner()).contains("replica-b");
    assertThat(jobs().finish(job.id(), "replica-a", State.SUCCEEDED, "late",
        MaintenanceTable.Observed.NOTHING, expired)).as("replica-a lost it").isFalse();
    assertThat(jobs().retry(job.id(), "replica-a", "late", expired)).isFalse();
    assertThat(jobs().finish(job.id(), "replica-b", State.SUCCEEDED, "done",
        MaintenanceTable.Observed.NOTHING, expired)).isTrue();
    assertThat(jobs().finish(job.id(), "replica-b", State.SUCCEEDED, "twice",
        MaintenanceTable.Observed.NOTHING, expired)).isFalse();
    assertThat(jobs().claim("replica-c", FAR_FUTURE, LEASE)).isEmpty();
  }

  @Test
  void aFailedAttemptWaitsOutItsBackOff() {
    MaintenanceJob job = planned("failing", T0);
    jobs().claim("a", T0, LEASE).orElseThrow();
    Instant due = T0.plus(Duration.ofMinutes(1));
    assertThat(jobs().retry(job.id(), "a", "IOException: gone", due)).isTrue();
    assertThat(jobs().jobs(fixture.org.id(), "sales.failing", 1)).singleElement()
        .satisfies(pending -> {
          assertThat(pending.state()).isEqualTo(State.PENDING);
          assertThat(pending.dueAt()).isEqualTo(due);
          assertThat(pending.lastError()).contains("IOException: gone");
          assertThat(pending.leaseOwner()).isEmpty();
        });
    assertThat(jobs().claim("b", due.minusSeconds(1), LEASE)).isEmpty();
    MaintenanceJob again = jobs().claim("b", due, LEASE).orElseThrow();
    assertThat(again.attempts()).isEqualTo(2);
    assertThat(again.lastError()).contains("IOException: gone");
  }

  @Test
  void replicasClaimingAtOnceNeverTakeTheSameJob() throws Exception {
    assumeTrue(ports().locksRows());
    Set<Long> planned = new HashSet<>();
    for (int i = 0; i < 8; i++) {
      planned.add(planned("t" + i, T0.plusSeconds(i)).id());
    }
    ExecutorService replicas = Executors.newFixedThreadPool(4);
    CountDownLatch start = new CountDownLatch(1);
    try {
      List<Future<List<Long>>> claims = new ArrayList<>();
      for (int r = 0; r < 4; r++) {
        String owner = "replica-" + r;
        claims.add(replicas.submit(() -> {
          start.await();
          List<Long> mine = new ArrayList<>();
          for (Optional<MaintenanceJob> job = jobs().claim(owner, T0.plusSeconds(60), LEASE);
              job.isPresent(); job = jobs().claim(owner, T0.plusSeconds(60), LEASE)) {
            mine.add(job.get().id());
          }
          return mine;
        }));
      }
      start.countDown();
      List<Long> claimed = new ArrayList<>();
      for (Future<List<Long>> claim : claims) {
        claimed.addAll(claim.get());
      }
      assertThat(claimed).doesNotHaveDuplicates().containsExactlyInAnyOrderElementsOf(planned);
    } finally {
      replicas.shutdownNow();
    }
  }

  @Test
  void jobsAreListedPerTableNewestFirstAndATableCanBeForgotten() {
    MaintenanceJob first = planned("listed", T0);
    MaintenanceJob claimed = jobs().claim("a", T0, LEASE).orElseThrow();
    jobs().finish(claimed.id(), "a", State.SKIPPED, "no policy", MaintenanceTable.Observed.NOTHING,
        T0);
    MaintenanceJob second = planned("listed", T0.plusSeconds(1));
    assertThat(jobs().jobs(fixture.org.id(), "sales.listed", 10)).extracting(MaintenanceJob::id)
        .containsExactly(second.id(), first.id());
    assertThat(jobs().jobs(fixture.org.id(), "sales.listed", 1)).extracting(MaintenanceJob::id)
        .containsExactly(second.id());
    assertThat(jobs().jobs(fixture.newOrg().id(), "sales.listed", 10)).isEmpty();

    jobs().record(fixture.org.id(), jobs().feedRead(fixture.org.id()),
        new FeedPosition(T0.getEpochSecond() + 5, 1, T0), List.of(commits("gone", 1, 1, 1)), T0);
    assertThat(mine()).extracting(MaintenanceTable::name).contains("gone");
    jobs().forget(fixture.org.id(), "sales.gone");
    assertThat(mine()).extracting(MaintenanceTable::name).doesNotContain("gone");
  }
}
