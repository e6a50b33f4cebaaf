package io.floe.bootstrap;

import io.floe.adapters.persistence.Database;
import io.floe.adapters.persistence.JooqDroppedTableClaimStore;
import io.floe.adapters.persistence.JooqNameRegistry;
import io.floe.adapters.persistence.JooqNamespaceDirectory;
import io.floe.adapters.persistence.JooqNamespaceLifecycleStore;
import io.floe.adapters.persistence.JooqNamespaceStore;
import io.floe.adapters.persistence.JooqOrgStore;
import io.floe.adapters.persistence.JooqPendingCreationStore;
import io.floe.adapters.persistence.JooqPrefixClaimStore;
import io.floe.adapters.rest.management.BucketRoutes;
import io.floe.adapters.rest.management.NamespaceManagementRoutes;
import io.floe.application.port.in.AuthenticateUseCase;
import io.floe.application.port.in.RunCleanupUseCase;
import io.floe.application.port.out.BucketStorageProvider;
import io.floe.application.port.out.IdGenerator;
import io.floe.application.port.out.LifecycleProbe;
import io.floe.application.security.AccessPolicy;
import io.floe.application.security.Operators;
import io.floe.application.service.BucketManagementService;
import io.floe.application.service.CreationRepair;
import io.floe.application.service.LocalBucketPlacement;
import io.floe.application.service.NamespaceCleanup;
import io.floe.application.service.NamespaceCreation;
import io.floe.application.service.NamespaceDeletion;
import io.floe.application.service.NamespaceManagementService;
import io.floe.application.service.NamespaceService;
import io.floe.application.service.PrefixClaimer;
import io.javalin.config.RoutesConfig;
import java.time.Clock;
import java.time.Duration;
import java.util.function.Consumer;

/**
 * The wiring of namespaces and the buckets they live on: one model behind both the Iceberg REST
 * namespaces and the management API, with its lifecycle (two-phase create, soft delete, restore,
 * cleanup), and the org's bucket configurations.
 */
final class NamespaceModule {
  final NamespaceService icebergNamespaces;
  final NamespaceManagementService management;
  final NamespaceCleanup cleanup;
  final BucketManagementService buckets;

  NamespaceModule(Database database, JooqOrgStore orgs, JooqNamespaceStore namespaces,
      PrefixClaimer claimer, BucketStorageProvider storage, IdGenerator ids, Clock clock,
      AccessPolicy policy, Duration recoveryPeriod, LifecycleProbe probe, Operators operators,
      LocalBucketPlacement localBuckets) {
    JooqNameRegistry names = new JooqNameRegistry(database);
    JooqPrefixClaimStore claims = new JooqPrefixClaimStore(database);
    JooqPendingCreationStore pending = new JooqPendingCreationStore(database);
    JooqNamespaceLifecycleStore lifecycle = new JooqNamespaceLifecycleStore(database);
    CreationRepair repair = new CreationRepair(pending, claims, names, orgs, storage, database);
    NamespaceCreation creation = new NamespaceCreation(orgs, namespaces, names, claimer, pending,
        repair, database, ids, clock, policy, probe);
    NamespaceDeletion deletion = new NamespaceDeletion(namespaces, lifecycle, names, database,
        clock, policy, recoveryPeriod);
    this.icebergNamespaces = new NamespaceService(namespaces, creation, deletion, database, clock,
        policy);
    this.management = new NamespaceManagementService(creation, deletion,
        new JooqNamespaceDirectory(database), lifecycle, database, clock, policy);
    this.cleanup = new NamespaceCleanup(lifecycle, namespaces, names, claims, orgs, storage,
        repair, database, clock, probe, policy, new JooqDroppedTableClaimStore(database));
    this.buckets = new BucketManagementService(orgs, database, ids, policy, operators,
        localBuckets);
  }

  /** The routes; the on-demand cleanup runs the whole pass, repos included. */
  Consumer<RoutesConfig> routes(AuthenticateUseCase authentication,
      RunCleanupUseCase cleanupPass) {
    return new NamespaceManagementRoutes(authentication, management, cleanupPass)
        .andThen(new BucketRoutes(authentication, buckets));
  }
}
