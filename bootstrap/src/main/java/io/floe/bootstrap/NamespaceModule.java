package io.floe.bootstrap;

import io.floe.adapters.persistence.Database;
import io.floe.adapters.persistence.JooqNamespaceDirectory;
import io.floe.adapters.rest.management.BucketRoutes;
import io.floe.adapters.rest.management.NamespaceManagementRoutes;
import io.floe.application.port.in.access.AuthenticateUseCase;
import io.floe.application.port.out.IdGenerator;
import io.floe.application.port.out.NamespaceStore;
import io.floe.application.port.out.OrgStore;
import io.floe.application.security.AccessPolicy;
import io.floe.application.service.change.ChangePublisher;
import io.floe.application.service.namespace.NamespaceCreation;
import io.floe.application.service.namespace.NamespaceDeletion;
import io.floe.application.service.namespace.NamespaceManagementService;
import io.floe.application.service.namespace.NamespaceService;
import io.floe.application.service.org.BucketManagementService;
import io.floe.application.security.Operators;
import io.floe.application.service.org.LocalBucketPlacement;
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

  NamespaceModule(Database database, OrgStore orgs, NamespaceStore namespaces,
      LifecycleModule lifecycle, IdGenerator ids, Clock clock, AccessPolicy policy,
      ChangePublisher publisher, Operators operators, LocalBucketPlacement localBuckets) {
    this.lifecycle = lifecycle;
    NamespaceCreation creation = new NamespaceCreation(orgs, namespaces, lifecycle.creation, ids,
        clock, policy);
    NamespaceDeletion deletion = new NamespaceDeletion(namespaces, lifecycle.namespaceLifecycle,
        lifecycle.namespaceDeletes, lifecycle.deletion, database, clock, policy, publisher);
    this.icebergNamespaces = new NamespaceService(namespaces, orgs, creation, deletion, database,
        clock,
        policy, publisher);
    this.management = new NamespaceManagementService(creation, deletion,
        new JooqNamespaceDirectory(database), lifecycle.namespaceLifecycle, database, clock,
        policy, publisher);
    this.buckets = new BucketManagementService(orgs, database, ids, policy, publisher, operators,
        localBuckets);
  }

  /** The routes; the on-demand cleanup runs the whole pass, repos included. */
  Consumer<RoutesConfig> routes(AuthenticateUseCase authentication) {
    return new NamespaceManagementRoutes(authentication, management, lifecycle.cleanup)
        .andThen(new BucketRoutes(authentication, buckets));
  }
}
