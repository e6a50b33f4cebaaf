package io.floe.bootstrap;

import io.floe.application.service.maintenance.BudgetedTableMaintenance;
import io.floe.application.service.work.OrgWorkBudget;
import io.floe.adapters.rest.management.MaintenancePolicyRoutes;
import io.floe.adapters.rest.management.TableMaintenanceRoutes;
import io.floe.adapters.storage.rows.IcebergDataFileRewriter;
import io.floe.adapters.storage.StorageAdapters;
import io.floe.application.port.in.access.AuthenticateUseCase;
import io.floe.application.port.in.maintenance.MaintainTableUseCase;
import io.floe.application.security.AccessPolicy;
import io.floe.application.service.change.ChangePublisher;
import io.floe.application.service.maintenance.DeleteMaintenancePolicyService;
import io.floe.application.port.in.maintenance.GetMaintenancePolicyUseCase;
import io.floe.application.service.maintenance.GetMaintenancePolicyService;
import io.floe.application.service.maintenance.OrphanGraceFloor;
import io.floe.application.service.maintenance.PolicyLevels;
import io.floe.application.service.maintenance.SetMaintenancePolicyService;
import io.floe.application.service.maintenance.TableMaintenanceService;
import io.floe.adapters.rest.management.MaintenanceJobRoutes;
import io.floe.application.health.Workers;
import io.floe.application.service.maintenance.ListMaintenanceJobsService;
import io.floe.application.service.maintenance.MaintenanceScheduler;
import io.javalin.config.RoutesConfig;
import io.floe.adapters.storage.spark.SparkSubmitMaintenance;
import io.floe.application.port.out.DistributedMaintenance;
import io.floe.application.port.out.MaintenanceExecutor;
import io.floe.application.service.maintenance.DistributedMaintenanceExecutor;
import io.floe.application.service.maintenance.InProcessMaintenanceExecutor;
import io.floe.application.service.maintenance.MaintenanceExecutors;
import java.lang.management.ManagementFactory;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Optional;
import java.util.UUID;
import java.time.Clock;
import java.util.function.Consumer;

/**
 * The wiring of table maintenance: the in-process executor (compaction with Iceberg's generic
 * Parquet reader and writer, expiry and manifest rewrite with iceberg-core's actions, orphan
 * removal), committing through the catalog's own commit use case; the Spark executor
 * ({@code spark-submit} of Iceberg's procedures, reaching the catalog over REST with a job's
 * token), when configured; the maintenance policies of orgs, namespaces and tables; the
 * scheduler that applies them by itself; and their routes.
 */
final class MaintenanceModule {
  final MaintainTableUseCase maintenance;
  /** What runs asked for through the API share with previews; the scheduler has its own limit. */
  private final OrgWorkBudget heavyWork;
  private final Adapters adapters;
  private final Clock clock;
  private final CatalogModule catalog;
  private final PolicyLevels levels;
  private final ListMaintenanceJobsService listJobs;
  private final SetMaintenancePolicyService setPolicy;
  private final GetMaintenancePolicyService getPolicy;
  private final DeleteMaintenancePolicyService deletePolicy;

  MaintenanceModule(Adapters adapters, Clock clock, AccessPolicy policy,
      ChangePublisher publisher, CatalogModule catalog, MaintenanceSettings settings,
      OrgWorkBudget heavyWork) {
    this.adapters = adapters;
    this.clock = clock;
    this.catalog = catalog;
    PolicyLevels levels = new PolicyLevels(catalog.locator, policy,
        adapters.maintenancePolicies(), OrphanGraceFloor.of(settings.orphanGraceFloor(),
            StorageAdapters.longestWriteAccess(StorageAdapters.DEFAULT_CREDENTIAL_LIFETIME),
            settings.jobTokenLifetime()));
    this.levels = levels;
    this.listJobs = new ListMaintenanceJobsService(catalog.locator, policy,
        adapters.maintenanceJobs());
    this.maintenance = new TableMaintenanceService(catalog.locator, policy, catalog.files,
        catalog.tables.commit(), publisher, new IcebergDataFileRewriter(), adapters.storage(),
        adapters.metrics(), levels, clock);
    this.heavyWork = heavyWork;
    this.setPolicy = new SetMaintenancePolicyService(levels, adapters.maintenancePolicies(),
        publisher, clock);
    this.getPolicy = new GetMaintenancePolicyService(levels);
    this.deletePolicy = new DeleteMaintenancePolicyService(levels,
        adapters.maintenancePolicies(), publisher);
  }

  /**
   * A scheduler of this server, whose leases carry {@code owner}: every replica runs one, and
   * they share the jobs through the database. Without Spark, Spark's jobs fail saying so.
   */
  MaintenanceScheduler scheduler(String owner, int concurrency) {
    return scheduler(owner, concurrency, Optional.empty(), Duration.ZERO);
  }

  /** The policies of orgs, namespaces and tables as readers see them (the web app's too). */
  GetMaintenancePolicyUseCase policies() {
    return getPolicy;
  }

  /**
   * A scheduler that submits the jobs of policies whose executor is Spark to {@code spark}. Here,
   * where the server is wired, is the one place that decides which executor runs which kind.
   */
  MaintenanceScheduler scheduler(String owner, int concurrency,
      Optional<DistributedMaintenance> spark, Duration tokenLifetime) {
    MaintenanceExecutor sparkExecutor = spark.<MaintenanceExecutor>map(engine ->
        new DistributedMaintenanceExecutor(engine, adapters.maintenanceJobTokens(),
            tokenLifetime)).orElseGet(DistributedMaintenanceExecutor::notConfigured);
    MaintenanceExecutors executors = MaintenanceExecutors.of(
        new InProcessMaintenanceExecutor(maintenance), sparkExecutor);
    return new MaintenanceScheduler(adapters.maintenanceJobs(), adapters.changeFeed(),
        adapters.maintenancePolicies(), adapters.orgs(), catalog.locator, levels, executors,
        adapters.metrics(), clock, owner, concurrency);
  }

  /**
   * The scheduler's loop among the server's workers; none when the settings turn it off. With
   * Spark configured, its driver script is written under {@code dataDir/spark}.
   */
  Optional<MaintenanceLoop> loop(MaintenanceSettings settings, Path dataDir, Workers workers) {
    if (!settings.enabled()) {
      return Optional.empty();
    }
    Optional<DistributedMaintenance> spark = settings.spark().map(submit ->
        new SparkSubmitMaintenance(submit, dataDir.resolve("spark")));
    return Optional.of(new MaintenanceLoop(workers,
        scheduler(replicaName(), settings.concurrency(), spark, settings.jobTokenLifetime()),
        settings));
  }

  /** This server among replicas: its process and host, and a random part for two in one JVM. */
  private static String replicaName() {
    return ManagementFactory.getRuntimeMXBean().getName() + "/"
        + UUID.randomUUID().toString().substring(0, 8);
  }

  Consumer<RoutesConfig> routes(AuthenticateUseCase authentication) {
    TableMaintenanceRoutes maintain = new TableMaintenanceRoutes(authentication,
        new BudgetedTableMaintenance(maintenance, heavyWork));
    MaintenancePolicyRoutes policies = new MaintenancePolicyRoutes(authentication, setPolicy,
        getPolicy, deletePolicy);
    MaintenanceJobRoutes jobs = new MaintenanceJobRoutes(authentication, listJobs);
    return maintain.andThen(policies).andThen(jobs);
  }
}
