package io.floe.bootstrap;

import io.floe.adapters.rest.management.CheckRoutes;
import io.floe.application.iceberg.MetadataFiles;
import io.floe.application.port.in.access.AuthenticateUseCase;
import io.floe.application.security.AccessPolicy;
import io.floe.application.service.check.CheckCatalogService;
import io.floe.application.service.check.MetadataFileChecker;
import io.floe.application.service.check.OverdueDeletionChecker;
import io.floe.application.service.check.PrefixClaimChecker;
import io.floe.application.service.check.RepoTableChecker;
import io.javalin.config.RoutesConfig;
import java.time.Clock;
import java.util.function.Consumer;

/**
 * The wiring of {@code floe check}: its checkers read the catalog's stores and the buckets through
 * the same ports as the server's own work, and write through none.
 */
final class CheckModule {
  private final CheckCatalogService check;

  CheckModule(Adapters adapters, Clock clock, AccessPolicy policy, MetadataFiles files) {
    this.check = new CheckCatalogService(policy,
        new MetadataFileChecker(adapters.namespaces(), adapters.objects(), adapters.orgs(), files),
        new RepoTableChecker(adapters.repos(), adapters.orgs(), adapters.icechunk(), files),
        new PrefixClaimChecker(adapters.orgs(), adapters.prefixClaims(), adapters.storage()),
        new OverdueDeletionChecker(adapters.namespaceDeletes(), adapters.repoDeletes(), clock));
  }

  Consumer<RoutesConfig> routes(AuthenticateUseCase authentication) {
    return new CheckRoutes(authentication, check);
  }
}
