package io.floe.bootstrap;

import io.floe.adapters.rest.management.TableMaintenanceRoutes;
import io.floe.adapters.storage.rows.IcebergDataFileRewriter;
import io.floe.application.port.in.access.AuthenticateUseCase;
import io.floe.application.port.in.maintenance.MaintainTableUseCase;
import io.floe.application.security.AccessPolicy;
import io.floe.application.service.change.ChangePublisher;
import io.floe.application.service.maintenance.TableMaintenanceService;
import io.javalin.config.RoutesConfig;
import java.time.Clock;
import java.util.function.Consumer;

/**
 * The wiring of table maintenance: the in-process executor (compaction with Iceberg's generic
 * Parquet reader and writer, expiry and manifest rewrite with iceberg-core's actions, orphan
 * removal), committing through the catalog's own commit use case, and its route.
 */
final class MaintenanceModule {
  final MaintainTableUseCase maintenance;

  MaintenanceModule(Adapters adapters, Clock clock, AccessPolicy policy,
      ChangePublisher publisher, CatalogModule catalog) {
    this.maintenance = new TableMaintenanceService(catalog.locator, policy, catalog.files,
        catalog.tables.commit(), publisher, new IcebergDataFileRewriter(), adapters.storage(),
        adapters.metrics(), clock);
  }

  Consumer<RoutesConfig> routes(AuthenticateUseCase authentication) {
    return new TableMaintenanceRoutes(authentication, maintenance);
  }
}
