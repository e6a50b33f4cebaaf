package io.floe.application.service.maintenance;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.floe.application.model.AuditEntry;
import io.floe.application.model.MaintenanceJob;
import io.floe.application.model.MaintenancePolicy;
import io.floe.application.model.MaintenancePolicyView;
import io.floe.application.model.MaintenanceTable;
import io.floe.application.port.in.maintenance.PolicyTarget;
import io.floe.application.port.out.inmemory.InMemoryMaintenancePolicyStore;
import io.floe.application.security.OrgContext;
import io.floe.application.testbed.Testbed;
import io.floe.domain.Action;
import io.floe.domain.CatalogObject;
import io.floe.domain.Namespace;
import io.floe.domain.Role;
import io.floe.domain.Visibility;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.exceptions.BadRequestException;
import org.apache.iceberg.exceptions.ForbiddenException;
import org.apache.iceberg.exceptions.NoSuchNamespaceException;
import org.apache.iceberg.exceptions.NoSuchTableException;
import org.junit.jupiter.api.Test;

/**
 * Maintenance policies and jobs on the fakes: a policy is set on the org by its admins, on a
 * namespace or a table by those who may manage it, read by those who may read the level; what
 * applies at a level merges each field from the nearest level that sets it, and says where it
 * came from; setting and deleting are audited, deleting nothing is not; a table's jobs are listed
 * newest first for its readers, within the limit, and do not exist for those who cannot see it.
 */
class MaintenancePolicyServicesTest {
  private static final MaintenancePolicy RETENTION =
      new MaintenancePolicy(Duration.ofDays(2).toSeconds(), 3, null, null, null, null);
  private static final MaintenancePolicy COMPACTION =
      new MaintenancePolicy(null, null, null, null, 64L << 20, null);
  private static final MaintenancePolicy KEEP_FIVE =
      new MaintenancePolicy(null, 5, null, null, null, null);

  private final Testbed bed = new Testbed();
  private final InMemoryMaintenancePolicyStore policies = new InMemoryMaintenancePolicyStore();
  private final PolicyLevels levels = new PolicyLevels(bed.locator(), bed.policy(), policies);
  private final SetMaintenancePolicyService set = new SetMaintenancePolicyService(levels,
      policies, bed.publisher(), bed.clock);
  private final GetMaintenancePolicyService get = new GetMaintenancePolicyService(levels);
  private final DeleteMaintenancePolicyService delete = new DeleteMaintenancePolicyService(levels,
      policies, bed.publisher());
  private final ListMaintenanceJobsService jobs = new ListMaintenanceJobsService(bed.locator(),
      bed.policy(), bed.store.maintenanceJobs());
  private final Namespace sales = bed.namespace("sales", Visibility.PRIVATE);
  private final CatalogObject orders = bed.table(sales, "orders");
  private final OrgContext reader = bed.member("reader", Role.MEMBER);
  private final OrgContext writer = bed.member("writer", Role.MEMBER);
  private final OrgContext stranger = bed.member("stranger", Role.MEMBER);

  private static final PolicyTarget ORG = PolicyTarget.org();
  private static final PolicyTarget SALES = PolicyTarget.namespace("sales");
  private static final PolicyTarget ORDERS = PolicyTarget.table("sales", "orders");

  MaintenancePolicyServicesTest() {
    bed.grant(reader.caller().principal().id(), sales, Optional.empty(), Action.READ);
    bed.grant(writer.caller().principal().id(), sales, Optional.empty(), Action.WRITE);
  }

  private List<AuditEntry> audit() {
    return bed.auditLog();
  }

  @Test
  void anAdminSetsTheOrgsPolicyEveryMemberReadsItAndTheChangeIsAudited() {
    MaintenancePolicyView view = set.set(bed.admin, ORG, RETENTION);

    assertThat(view.scope()).isEqualTo("org");
    assertThat(view.target()).isEqualTo("acme");
    assertThat(view.policy()).isEqualTo(RETENTION);
    assertThat(view.effective()).isEqualTo(RETENTION);
    assertThat(get.get(stranger, ORG).policy()).isEqualTo(RETENTION);
    assertThat(policies.orgsWithPolicies()).containsExactly(bed.org.id());
    assertThat(audit()).singleElement().satisfies(entry -> {
      assertThat(entry.action()).isEqualTo("maintenance.policy_set");
      assertThat(entry.targetKind()).isEqualTo("org");
      assertThat(entry.targetName()).isEqualTo("acme");
    });
    assertThatThrownBy(() -> set.set(reader, ORG, KEEP_FIVE))
        .isInstanceOf(ForbiddenException.class);
    assertThatThrownBy(() -> delete.delete(reader, ORG))
        .isInstanceOf(ForbiddenException.class);
    assertThat(get.get(bed.admin, ORG).policy()).isEqualTo(RETENTION);
  }

  @Test
  void whatAppliesToATableTakesEachFieldFromTheNearestLevelAndSaysWhichLevel() {
    set.set(bed.admin, ORG, RETENTION);
    set.set(bed.admin, SALES, KEEP_FIVE);
    set.set(bed.admin, ORDERS, COMPACTION);

    MaintenancePolicyView view = get.get(reader, ORDERS);

    assertThat(view.scope()).isEqualTo("table");
    assertThat(view.target()).isEqualTo("sales.orders");
    assertThat(view.policy()).isEqualTo(COMPACTION);
    assertThat(view.effective()).isEqualTo(new MaintenancePolicy(Duration.ofDays(2).toSeconds(),
        5, null, null, 64L << 20, null));
    assertThat(view.sources()).containsEntry("compaction_target_file_size_bytes", "table")
        .containsEntry("min_snapshots_to_keep", "namespace")
        .containsEntry("snapshot_max_age_seconds", "org")
        .doesNotContainKey("orphan_grace_seconds");
    MaintenancePolicyView namespace = get.get(reader, SALES);
    assertThat(namespace.policy()).isEqualTo(KEEP_FIVE);
    assertThat(namespace.effective().minSnapshotsToKeep()).isEqualTo(5);
  }

  @Test
  void aNamespaceOrTablePolicyIsSetByThoseWhoManageItAndReadByItsReadersOnly() {
    assertThatThrownBy(() -> set.set(writer, SALES, KEEP_FIVE))
        .isInstanceOf(ForbiddenException.class);
    assertThatThrownBy(() -> set.set(reader, ORDERS, KEEP_FIVE))
        .isInstanceOf(ForbiddenException.class);
    assertThatThrownBy(() -> set.set(stranger, SALES, KEEP_FIVE))
        .isInstanceOf(NoSuchNamespaceException.class);
    assertThatThrownBy(() -> get.get(stranger, SALES))
        .isInstanceOf(NoSuchNamespaceException.class);
    assertThatThrownBy(() -> get.get(stranger, ORDERS))
        .isInstanceOf(NoSuchTableException.class);
    assertThatThrownBy(() -> set.set(bed.admin, PolicyTarget.table("sales", "missing"), KEEP_FIVE))
        .isInstanceOf(NoSuchTableException.class);
    assertThat(policies.find(sales.id())).isEmpty();
    assertThat(policies.find(orders.id())).isEmpty();
    assertThat(audit()).isEmpty();

    bed.grant(writer.caller().principal().id(), sales, Optional.empty(), Action.MANAGE);
    set.set(writer, SALES, KEEP_FIVE);
    assertThat(policies.find(sales.id())).contains(KEEP_FIVE);
    assertThat(audit()).singleElement().satisfies(entry -> {
      assertThat(entry.targetKind()).isEqualTo("namespace");
      assertThat(entry.targetName()).isEqualTo("sales");
      assertThat(entry.principalName()).isEqualTo("writer");
    });
  }

  @Test
  void aViewIsNoTableForAPolicy() {
    bed.view(sales, "daily");

    assertThatThrownBy(() -> set.set(bed.admin, PolicyTarget.table("sales", "daily"), KEEP_FIVE))
        .isInstanceOf(NoSuchTableException.class);
  }

  @Test
  void deletingAPolicyFallsBackToTheLevelAboveAndDeletingNothingIsNotAudited() {
    set.set(bed.admin, ORG, RETENTION);
    set.set(bed.admin, ORDERS, KEEP_FIVE);

    assertThat(delete.delete(bed.admin, ORDERS)).isTrue();
    assertThat(delete.delete(bed.admin, ORDERS)).isFalse();
    assertThat(delete.delete(bed.admin, SALES)).isFalse();

    MaintenancePolicyView view = get.get(reader, ORDERS);
    assertThat(view.policy()).isNull();
    assertThat(view.effective()).isEqualTo(RETENTION);
    assertThat(view.sources()).containsEntry("min_snapshots_to_keep", "org");
    assertThat(audit()).extracting(AuditEntry::action).containsExactly(
        "maintenance.policy_set", "maintenance.policy_set", "maintenance.policy_delete");
    assertThat(audit().get(2).targetKind()).isEqualTo("table");
    assertThat(audit().get(2).targetName()).isEqualTo("sales.orders");
  }

  @Test
  void aTablesJobsAreListedNewestFirstWithinTheLimitForItsReaders() {
    CatalogObject items = bed.table(sales, "items");
    MaintenanceJob first = plan("orders", MaintenanceJob.Step.COMPACT);
    finish(first);
    MaintenanceJob second = plan("orders", MaintenanceJob.Step.EXPIRE_SNAPSHOTS);
    plan("items", MaintenanceJob.Step.COMPACT);

    List<MaintenanceJob> listed = jobs.jobs(reader, TableIdentifier.of("sales", "orders"), 10);

    assertThat(listed).extracting(MaintenanceJob::id).containsExactly(second.id(), first.id());
    assertThat(jobs.jobs(reader, TableIdentifier.of("sales", "orders"), 1))
        .extracting(MaintenanceJob::id).containsExactly(second.id());
    assertThat(jobs.jobs(reader, TableIdentifier.of("sales", "items"), 10)).hasSize(1);
    assertThat(items).isNotNull();
  }

  @Test
  void jobsOfATableTheCallerCannotSeeDoNotExistAndTheLimitIsBounded() {
    plan("orders", MaintenanceJob.Step.COMPACT);
    TableIdentifier id = TableIdentifier.of("sales", "orders");

    assertThatThrownBy(() -> jobs.jobs(stranger, id, 10))
        .isInstanceOf(NoSuchTableException.class);
    assertThatThrownBy(() -> jobs.jobs(reader, id, 0)).isInstanceOf(BadRequestException.class);
    assertThatThrownBy(() -> jobs.jobs(reader, id, 501)).isInstanceOf(BadRequestException.class);
    assertThat(jobs.jobs(reader, id, 500)).hasSize(1);
  }

  private MaintenanceJob plan(String table, MaintenanceJob.Step step) {
    bed.clock.advance(Duration.ofMinutes(1));
    return bed.store.maintenanceJobs().plan(bed.org.id(), "sales", table, Set.of(step),
        "test", bed.clock.instant()).orElseThrow();
  }

  /** The job runs and ends, so that the next one for its table can be planned. */
  private void finish(MaintenanceJob job) {
    MaintenanceJob claimed = bed.store.maintenanceJobs().claim("replica", bed.clock.instant(),
        Duration.ofMinutes(5)).orElseThrow();
    assertThat(claimed.id()).isEqualTo(job.id());
    assertThat(bed.store.maintenanceJobs().finish(job.id(), "replica",
        MaintenanceJob.State.SUCCEEDED, "done", MaintenanceTable.Observed.NOTHING,
        bed.clock.instant())).isTrue();
  }

  @Test
  void anOrphanGracePeriodUnderTheFloorIsRefusedNamingIt() {
    assertThatThrownBy(() -> set.set(bed.admin, SALES,
        new MaintenancePolicy(null, null, 0L, null, null, null)))
        .isInstanceOf(BadRequestException.class)
        .hasMessageContaining("orphan_grace_seconds (0 seconds) is under this server's floor "
            + "of 86400 seconds");
    assertThat(policies.find(sales.id())).isEmpty();
    assertThat(audit()).isEmpty();

    set.set(bed.admin, SALES, new MaintenancePolicy(null, null, 86_400L, null, null, null));
    assertThat(policies.find(sales.id())).isPresent();
  }
}
