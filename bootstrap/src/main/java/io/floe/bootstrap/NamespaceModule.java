package io.floe.bootstrap;

import io.floe.adapters.persistence.jooq.Database;
import io.floe.adapters.rest.management.BucketRoutes;
import io.floe.adapters.rest.management.NamespaceManagementRoutes;
import io.floe.application.port.in.access.AuthenticateUseCase;
import io.floe.application.port.out.NamespaceStore;
import io.floe.application.security.AccessPolicy;
import io.floe.application.service.catalog.CatalogLocator;
import io.floe.application.service.change.ChangePublisher;
import io.floe.application.service.namespace.NamespaceCreation;
import io.floe.application.service.namespace.NamespaceDeletion;
import io.floe.application.service.namespace.NamespaceManagementService;
import io.floe.application.service.namespace.NamespaceService;
import io.floe.application.service.org.BucketManagementService;
import io.floe.application.service.repo.tables.RepoNamespaces;
import io.javalin.config.RoutesConfig;
import java.time.Clock;
import java.util.function.Consumer;

/**
 * The wiring of namespaces and the buckets they live on: one model behind both the Iceberg REST
 * namespaces and the management API, on the lifecycle namespaces share with repos, and the org's
 * bucket configurations.
 */
final class NamespaceModule {
  final NamespaceService icebergNamespaces;
  final NamespaceManagementService management;
  final BucketManagementService buckets;
  private final LifecycleModule lifecycle;

  NamespaceModule(Adapters adapters, Clock clock, AccessModule access,
      ChangePublisher publisher, LifecycleModule lifecycle, OrgModule orgs,
      CatalogLocator locator, RepoNamespaces repoNamespaces) {
    this.lifecycle = lifecycle;
    Database database = adapters.database();
    NamespaceStore namespaces = adapters.namespaces();
    AccessPolicy policy = access.policy;
    NamespaceCreation creation = new NamespaceCreation(adapters.orgs(), namespaces,
        lifecycle.creation, adapters.ids(), clock, policy);
    NamespaceDeletion deletion = new NamespaceDeletion(namespaces, lifecycle.namespaceLifecycle,
        lifecycle.namespaceDeletes, lifecycle.deletion, database, clock, policy, publisher);
    this.icebergNamespaces = new NamespaceService(namespaces, adapters.orgs(), creation, deletion,
        database, clock, policy, publisher, locator, repoNamespaces);
    this.management = new NamespaceManagementService(creation, deletion,
        adapters.namespaceDirectory(), lifecycle.namespaceLifecycle, database, clock, policy,
        publisher);
    this.buckets = new BucketManagementService(adapters.orgs(), database, adapters.ids(), policy,
        publisher, access.operators, orgs.localBuckets, adapters.bucketIdentities());
  }

  /** The routes; the on-demand cleanup runs the whole pass, repos included. */
  Consumer<RoutesConfig> routes(AuthenticateUseCase authentication) {
    return new NamespaceManagementRoutes(authentication, management, lifecycle.cleanup)
        .andThen(new BucketRoutes(authentication, buckets));
  }
}
