package io.floe.application.service.maintenance;

import static org.assertj.core.api.Assertions.assertThat;

import io.floe.application.model.AuditAction;
import io.floe.application.model.MaintenanceJob;
import io.floe.application.model.MaintenanceJob.State;
import io.floe.application.model.MaintenancePolicy;
import io.floe.application.model.MaintenanceTable;
import io.floe.application.model.TableMaintenance;
import io.floe.application.port.in.maintenance.MaintainTableUseCase;
import io.floe.application.port.out.MaintenanceEvents;
import io.floe.application.port.out.MaintenancePolicyStore;
import io.floe.application.port.out.inmemory.InMemoryMaintenancePolicyStore;
import io.floe.application.service.catalog.CatalogChanges;
import io.floe.application.testbed.Testbed;
import io.floe.domain.CatalogObject;
import io.floe.domain.Namespace;
import io.floe.domain.Visibility;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.iceberg.catalog.TableIdentifier;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The scheduler's leases and its bound on concurrency, on the fakes with a movable clock and a
 * maintenance run that waits to be let go: a running job's lease is renewed, so no other replica
 * takes it however long it runs; a replica runs at most its concurrency of jobs at once.
 */
class MaintenanceSchedulerLeaseTest {
  private final Testbed testbed = new Testbed();
  private final InMemoryMaintenancePolicyStore policies = new InMemoryMaintenancePolicyStore();
  private final CountDownLatch release = new CountDownLatch(1);
  private final AtomicInteger running = new AtomicInteger();
  private final AtomicInteger mostAtOnce = new AtomicInteger();
  private final List<CountDownLatch> started = new ArrayList<>();
  private final ExecutorService background = Executors.newCachedThreadPool();
  private final List<MaintenanceScheduler> schedulers = new ArrayList<>();
  private Namespace sales;

  /** Maintenance that holds its table until the test lets it go. */
  private final MaintainTableUseCase held = (context, table, steps) -> {
    int now = running.incrementAndGet();
    mostAtOnce.accumulateAndGet(now, Math::max);
    synchronized (started) {
      started.forEach(CountDownLatch::countDown);
    }
    try {
      release.await(30, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    } finally {
      running.decrementAndGet();
    }
    return new TableMaintenance(table.toString(), false, new TableMaintenance.Compaction("done",
        1, 5, 500, 1, 0, 0, null), null, null, null);
  };

  @BeforeEach
  void salesWithACompactionPolicy() {
    sales = testbed.namespace("sales", Visibility.PRIVATE);
    policies.put(testbed.org.id(), sales.id(), MaintenancePolicyStore.Scope.NAMESPACE,
        new MaintenancePolicy(null, null, null, null, 8L << 20, null), testbed.clock.instant());
  }

  @AfterEach
  void stop() {
    release.countDown();
    schedulers.forEach(MaintenanceScheduler::close);
    background.shutdownNow();
  }

  private MaintenanceScheduler replica(String owner, int concurrency) {
    MaintenanceScheduler scheduler = new MaintenanceScheduler(testbed.store.maintenanceJobs(),
        testbed.store.changeFeed(), policies, testbed.store.orgs(), testbed.locator(),
        new PolicyLevels(testbed.locator(), testbed.policy(), policies),
        MaintenanceExecutors.of(new InProcessMaintenanceExecutor(held)),
        MaintenanceEvents.NONE, testbed.clock, owner, concurrency);
    schedulers.add(scheduler);
    return scheduler;
  }

  /** A table whose five appends a client committed: the feed reports five small files. */
  private void committedTo(String name) {
    CatalogObject table = testbed.table(sales, name);
    assertThat(table).isNotNull();
    TableIdentifier identifier = TableIdentifier.of("sales", name);
    testbed.publisher().publish(testbed.admin, CatalogChanges.of(AuditAction.TABLE_COMMIT,
        CatalogObject.Kind.TABLE, identifier).with("added_snapshots", List.of(Map.of(
            "summary", Map.of("added-data-files", "1", "total-data-files", "5",
                "total-files-size", "500")))), () -> { });
  }

  private CountDownLatch starts(int count) {
    CountDownLatch latch = new CountDownLatch(count);
    synchronized (started) {
      started.add(latch);
    }
    return latch;
  }

  private List<MaintenanceJob> jobs(String name) {
    return testbed.store.maintenanceJobs().jobs(testbed.org.id(),
        MaintenanceTable.key("sales", name), 10);
  }

  @Test
  void aRunningJobsLeaseIsRenewedSoNoOtherReplicaTakesItOver() throws Exception {
    committedTo("orders");
    MaintenanceScheduler first = replica("replica-a", 1);
    assertThat(first.readFeeds()).isEqualTo(1);
    assertThat(first.plan()).isEqualTo(1);
    CountDownLatch runs = starts(1);
    Future<List<MaintenanceJob>> ran = background.submit(first::runDue);
    assertThat(runs.await(30, TimeUnit.SECONDS)).isTrue();
    Instant claimedAt = testbed.clock.instant();

    testbed.clock.advance(MaintenanceScheduler.LEASE.minusSeconds(1));
    assertThat(first.renewLeases()).isEqualTo(1);
    testbed.clock.advance(Duration.ofSeconds(2));
    assertThat(testbed.clock.instant()).isAfter(claimedAt.plus(MaintenanceScheduler.LEASE));
    assertThat(testbed.store.maintenanceJobs().claim("replica-b", testbed.clock.instant(),
        MaintenanceScheduler.LEASE)).as("renewed: still replica-a's").isEmpty();
    assertThat(replica("replica-b", 1).runDue()).isEmpty();

    release.countDown();
    assertThat(ran.get(30, TimeUnit.SECONDS)).hasSize(1);
    assertThat(jobs("orders")).singleElement().satisfies(job -> {
      assertThat(job.state()).isEqualTo(State.SUCCEEDED);
      assertThat(job.attempts()).isEqualTo(1);
      assertThat(job.leaseOwner()).contains("replica-a");
    });
    assertThat(first.renewLeases()).as("nothing runs any more").isZero();
  }

  @Test
  void aReplicaRunsAtMostItsConcurrencyOfJobsAtOnce() throws Exception {
    for (String name : List.of("a", "b", "c")) {
      committedTo(name);
    }
    MaintenanceScheduler scheduler = replica("replica-a", 2);
    scheduler.readFeeds();
    assertThat(scheduler.plan()).isEqualTo(3);
    CountDownLatch two = starts(2);
    Future<List<MaintenanceJob>> ran = background.submit(scheduler::runDue);
    assertThat(two.await(30, TimeUnit.SECONDS)).isTrue();
    long pending = List.of("a", "b", "c").stream().map(this::jobs)
        .filter(jobs -> jobs.get(0).state() == State.PENDING).count();
    assertThat(pending).as("the third waits").isEqualTo(1);

    release.countDown();
    assertThat(ran.get(30, TimeUnit.SECONDS)).hasSize(2);
    assertThat(scheduler.runDue()).hasSize(1);
    assertThat(mostAtOnce.get()).isEqualTo(2);
  }
}
