package io.floe.application.service.maintenance;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.floe.application.model.AuditAction;
import io.floe.application.model.MaintenanceJob;
import io.floe.application.model.MaintenanceJob.State;
import io.floe.application.model.MaintenancePolicy;
import io.floe.application.model.MaintenanceTable;
import io.floe.application.port.in.maintenance.MaintainTableUseCase;
import io.floe.application.port.out.DistributedMaintenance;
import io.floe.application.port.out.IdentityTokens;
import io.floe.application.port.out.ExternalIdentities;
import io.floe.application.port.out.MaintenanceEvents;
import io.floe.application.port.out.MaintenancePolicyStore;
import io.floe.application.security.Caller;
import io.floe.application.security.MaintenanceJobTokens;
import io.floe.application.security.MaintenanceSchedulerIdentity;
import io.floe.application.security.OrgContext;
import io.floe.application.service.access.AuthenticationService;
import io.floe.application.service.catalog.CatalogChanges;
import io.floe.application.testbed.Testbed;
import io.floe.domain.Action;
import io.floe.domain.CatalogObject;
import io.floe.domain.Namespace;
import io.floe.domain.Org;
import io.floe.domain.OrgName;
import io.floe.domain.Visibility;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.function.Function;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.exceptions.NoSuchWarehouseException;
import org.apache.iceberg.exceptions.NotAuthorizedException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The Spark executor as the scheduler sees it, on the fakes: a policy whose executor is spark
 * plans jobs that run on the distributed engine, with the policy's steps and a token that lets
 * the job write its one table and nothing else, only in its org and only until it expires; what
 * the engine reports ends the job, and a failure goes back to pending with its reason, as an
 * in-process job's would. Nothing runs in process.
 */
class MaintenanceSchedulerSparkTest {
  private static final byte[] KEY = new byte[32];

  static {
    Arrays.fill(KEY, (byte) 3);
  }

  private final Testbed testbed = new Testbed();
  private final PolicyStore policies = new PolicyStore();
  private final MaintenanceJobTokens tokens = new MaintenanceJobTokens(KEY, testbed.clock);
  private final List<DistributedMaintenance.Job> submitted = new ArrayList<>();
  private final List<MaintenanceScheduler> schedulers = new ArrayList<>();
  private Namespace sales;
  private CatalogObject orders;
  private CatalogObject customers;

  private final MaintainTableUseCase inProcess = (context, table, steps) -> {
    throw new AssertionError("a Spark job must not run in process");
  };

  /** Policies in memory: all the scheduler asks of them. */
  private static final class PolicyStore implements MaintenancePolicyStore {
    private final Map<UUID, MaintenancePolicy> set = new HashMap<>();
    private final Map<UUID, UUID> orgs = new HashMap<>();

    @Override
    public synchronized Optional<MaintenancePolicy> find(UUID targetId) {
      return Optional.ofNullable(set.get(targetId));
    }

    @Override
    public synchronized void put(UUID orgId, UUID targetId, Scope scope,
        MaintenancePolicy policy, Instant at) {
      set.put(targetId, policy);
      orgs.put(targetId, orgId);
    }

    @Override
    public synchronized boolean delete(UUID targetId) {
      orgs.remove(targetId);
      return set.remove(targetId) != null;
    }

    @Override
    public synchronized List<UUID> orgsWithPolicies() {
      return orgs.values().stream().distinct().toList();
    }
  }

  @BeforeEach
  void salesWithASparkPolicy() {
    sales = testbed.namespace("sales", Visibility.AUTHENTICATED_PUBLIC);
    orders = testbed.table(sales, "orders");
    customers = testbed.table(sales, "customers");
    policies.put(testbed.org.id(), sales.id(), MaintenancePolicyStore.Scope.NAMESPACE,
        new MaintenancePolicy(0L, 5, null, null, 8L << 20, null, MaintenancePolicy.SPARK),
        testbed.clock.instant());
  }

  @AfterEach
  void stop() {
    schedulers.forEach(MaintenanceScheduler::close);
  }

  private MaintenanceScheduler scheduler(
      Function<DistributedMaintenance.Job, DistributedMaintenance.Outcome> engine) {
    DistributedMaintenance recorded = job -> {
      submitted.add(job);
      return engine.apply(job);
    };
    MaintenanceScheduler scheduler = new MaintenanceScheduler(testbed.store.maintenanceJobs(),
        testbed.store.changeFeed(), policies, testbed.store.orgs(), testbed.locator(),
        new PolicyLevels(testbed.locator(), testbed.policy(), policies),
        MaintenanceExecutors.of(new InProcessMaintenanceExecutor(inProcess),
            new DistributedMaintenanceExecutor(recorded, tokens, Duration.ofMinutes(30))),
        MaintenanceEvents.NONE, testbed.clock, "replica-a", 1);
    schedulers.add(scheduler);
    return scheduler;
  }

  /** Twenty appends a client committed: the feed reports twenty small files and snapshots. */
  private void committedTo(String name) {
    TableIdentifier identifier = TableIdentifier.of("sales", name);
    testbed.publisher().publish(testbed.admin, CatalogChanges.of(AuditAction.TABLE_COMMIT,
        CatalogObject.Kind.TABLE, identifier).with("added_snapshots", java.util.Collections
            .nCopies(20, Map.of("summary", Map.of("added-data-files", "1",
                "total-data-files", "20", "total-files-size", "2000")))), () -> { });
  }

  private List<MaintenanceJob> jobs(String name) {
    return testbed.store.maintenanceJobs().jobs(testbed.org.id(),
        MaintenanceTable.key("sales", name), 10);
  }

  private AuthenticationService authentication() {
    return new AuthenticationService(testbed.store.principals(), testbed.store.orgs(),
        testbed.clock, IdentityTokens.NONE, ExternalIdentities.NONE, Optional.of(tokens));
  }

  @Test
  void aSparkPolicysJobRunsOnTheEngineWithThePolicysStepsAndEndsAsItReports() {
    committedTo("orders");
    MaintenanceScheduler scheduler = scheduler(job -> new DistributedMaintenance.Outcome(
        "spark: compaction done (20 files into 1); expiry done (15 expired, 5 remain)",
        Optional.of(5), Optional.of(1)));
    scheduler.readFeeds();
    assertThat(scheduler.plan()).isEqualTo(1);
    assertThat(jobs("orders")).singleElement().extracting(MaintenanceJob::executor)
        .isEqualTo(MaintenancePolicy.SPARK);
    Instant now = testbed.clock.instant();

    assertThat(scheduler.runDue()).hasSize(1);

    DistributedMaintenance.Job job = submitted.get(0);
    assertThat(job.warehouse()).isEqualTo("acme");
    assertThat(job.namespace()).isEqualTo("sales");
    assertThat(job.table()).isEqualTo("orders");
    assertThat(job.compact()).contains(new DistributedMaintenance.Compaction(8L << 20,
        MaintainTableUseCase.DEFAULT_MIN_INPUT_FILES));
    assertThat(job.expire()).contains(new DistributedMaintenance.Expiry(now, 5));
    assertThat(job.rewriteManifests()).isFalse();
    assertThat(job.orphansOlderThan()).isEmpty();
    assertThat(job.dryRun()).isFalse();
    assertThat(job.toString()).doesNotContain(job.token());
    assertThat(jobs("orders")).singleElement().satisfies(ended -> {
      assertThat(ended.state()).isEqualTo(State.SUCCEEDED);
      assertThat(ended.executor()).isEqualTo(MaintenancePolicy.SPARK);
      assertThat(ended.outcome()).contains(
          "spark: compaction done (20 files into 1); expiry done (15 expired, 5 remain)");
    });
  }

  @Test
  void theJobsTokenWritesItsTableOnlyInItsOrgAndOnlyUntilItExpires() {
    committedTo("orders");
    MaintenanceScheduler scheduler = scheduler(job -> new DistributedMaintenance.Outcome("done",
        Optional.empty(), Optional.empty()));
    scheduler.readFeeds();
    scheduler.plan();
    scheduler.runDue();
    String token = submitted.get(0).token();
    AuthenticationService authentication = authentication();

    Caller caller = authentication.authenticate(token);
    assertThat(caller.principal()).isEqualTo(MaintenanceSchedulerIdentity.PRINCIPAL);
    OrgContext context = authentication.enterOrg(caller, "acme");
    assertThat(context.isAdmin()).isFalse();
    var policy = testbed.policy();
    assertThat(policy.allows(context, Action.WRITE, sales, orders)).isTrue();
    assertThat(policy.allows(context, Action.READ, sales, orders)).isTrue();
    assertThat(policy.allows(context, Action.MANAGE, sales, orders)).isFalse();
    assertThat(policy.allows(context, Action.READ, sales, customers))
        .as("its neighbour, though every member may read the namespace").isFalse();
    assertThat(policy.allows(context, Action.READ, sales)).isFalse();

    Org other = new Org(UUID.randomUUID(), new OrgName("other"), true);
    testbed.store.orgs().insertOrg(other);
    assertThatThrownBy(() -> authentication.enterOrg(caller, "other"))
        .isInstanceOf(NoSuchWarehouseException.class);

    char last = token.charAt(token.length() - 2);
    String altered = token.substring(0, token.length() - 2) + (last == 'A' ? 'B' : 'A')
        + token.charAt(token.length() - 1);
    assertThatThrownBy(() -> authentication.authenticate(altered))
        .isInstanceOf(NotAuthorizedException.class);
    assertThatThrownBy(() -> new AuthenticationService(testbed.store.principals(),
        testbed.store.orgs(), testbed.clock).authenticate(token))
        .as("a server that takes no job tokens").isInstanceOf(NotAuthorizedException.class);

    testbed.clock.advance(Duration.ofMinutes(30));
    assertThatThrownBy(() -> authentication.authenticate(token))
        .isInstanceOf(NotAuthorizedException.class);
  }

  @Test
  void aFailedSparkJobGoesBackToPendingWithItsOutputsTail() {
    committedTo("orders");
    MaintenanceScheduler scheduler = scheduler(job -> {
      throw new DistributedMaintenance.Failed("spark-submit exited with 1: ...\n"
          + "pyspark.errors.exceptions.captured.AnalysisException: no such procedure");
    });
    scheduler.readFeeds();
    scheduler.plan();
    scheduler.runDue();

    assertThat(jobs("orders")).singleElement().satisfies(job -> {
      assertThat(job.state()).isEqualTo(State.PENDING);
      assertThat(job.lastError()).hasValueSatisfying(error -> assertThat(error)
          .startsWith("spark-submit exited with 1").contains("no such procedure"));
      assertThat(job.dueAt()).isEqualTo(testbed.clock.instant()
          .plus(MaintenanceScheduler.FIRST_BACKOFF));
    });
  }

  @Test
  void withoutASparkTheJobFailsSayingSoAndNothingRunsInProcess() {
    committedTo("orders");
    MaintenanceScheduler scheduler = new MaintenanceScheduler(testbed.store.maintenanceJobs(),
        testbed.store.changeFeed(), policies, testbed.store.orgs(), testbed.locator(),
        new PolicyLevels(testbed.locator(), testbed.policy(), policies),
        MaintenanceExecutors.of(new InProcessMaintenanceExecutor(inProcess),
            DistributedMaintenanceExecutor.notConfigured()),
        MaintenanceEvents.NONE, testbed.clock, "replica-a", 1);
    schedulers.add(scheduler);
    scheduler.readFeeds();
    scheduler.plan();
    scheduler.runDue();

    assertThat(jobs("orders")).singleElement().satisfies(job -> {
      assertThat(job.state()).isEqualTo(State.PENDING);
      assertThat(job.lastError()).hasValueSatisfying(error ->
          assertThat(error).contains("no Spark is configured"));
    });
  }
}
