package io.floe.bootstrap;

import io.floe.adapters.rest.management.MaintenancePolicyRoutes;
import io.floe.adapters.rest.management.TableMaintenanceRoutes;
import io.floe.adapters.storage.rows.IcebergDataFileRewriter;
import io.floe.application.port.in.access.AuthenticateUseCase;
import io.floe.application.port.in.maintenance.MaintainTableUseCase;
import io.floe.application.security.AccessPolicy;
import io.floe.application.service.change.ChangePublisher;
import io.floe.application.service.maintenance.DeleteMaintenancePolicyService;
import io.floe.application.service.maintenance.GetMaintenancePolicyService;
import io.floe.application.service.maintenance.PolicyLevels;
import io.floe.application.service.maintenance.SetMaintenancePolicyService;
import io.floe.application.service.maintenance.TableMaintenanceService;
import io.javalin.config.RoutesConfig;
import java.time.Clock;
import java.util.function.Consumer;

/**
 * The wiring of table maintenance: the in-process executor (compaction with Iceberg's generic
 * Parquet reader and writer, expiry and manifest rewrite with iceberg-core's actions, orphan
 * removal), committing through the catalog's own commit use case; the maintenance policies of
 * orgs, namespaces and tables; and their routes.
 */
final class MaintenanceModule {
  final MaintainTableUseCase maintenance;
  private final SetMaintenancePolicyService setPolicy;
  private final GetMaintenancePolicyService getPolicy;
  private final DeleteMaintenancePolicyService deletePolicy;

  MaintenanceModule(Adapters adapters, Clock clock, AccessPolicy policy,
      ChangePublisher publisher, CatalogModule catalog) {
    PolicyLevels levels = new PolicyLevels(catalog.locator, policy,
        adapters.maintenancePolicies());
    this.maintenance = new TableMaintenanceService(catalog.locator, policy, catalog.files,
        catalog.tables.commit(), publisher, new IcebergDataFileRewriter(), adapters.storage(),
        adapters.metrics(), levels, clock);
    this.setPolicy = new SetMaintenancePolicyService(levels, adapters.maintenancePolicies(),
        publisher, clock);
    this.getPolicy = new GetMaintenancePolicyService(levels);
    this.deletePolicy = new DeleteMaintenancePolicyService(levels,
        adapters.maintenancePolicies(), publisher);
  }

  Consumer<RoutesConfig> routes(AuthenticateUseCase authentication) {
    TableMaintenanceRoutes maintain = new TableMaintenanceRoutes(authentication, maintenance);
    MaintenancePolicyRoutes policies = new MaintenancePolicyRoutes(authentication, setPolicy,
        getPolicy, deletePolicy);
    return maintain.andThen(policies);
  }
}
