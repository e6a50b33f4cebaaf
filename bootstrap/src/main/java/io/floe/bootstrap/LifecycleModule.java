package io.floe.bootstrap;

import io.floe.adapters.persistence.jooq.JooqNamespaceLifecycleStore;
import io.floe.application.health.Workers;
import io.floe.application.port.out.LifecycleProbe;
import io.floe.application.port.out.SoftDeleteStore;
import io.floe.application.security.AccessPolicy;
import io.floe.application.service.change.ChangePublisher;
import io.floe.application.service.lifecycle.CleanupPass;
import io.floe.application.service.lifecycle.CreationRepair;
import io.floe.application.service.lifecycle.DroppedTablePrefixes;
import io.floe.application.service.lifecycle.NamespaceCleanupSteps;
import io.floe.application.service.lifecycle.OrgNames;
import io.floe.application.service.lifecycle.PrefixClaimer;
import io.floe.application.service.lifecycle.PrefixOwnerCreation;
import io.floe.application.service.lifecycle.RepoCleanupSteps;
import io.floe.application.service.lifecycle.SoftDeleteCleanup;
import io.floe.application.service.lifecycle.SoftDeletion;
import io.floe.domain.Namespace;
import io.floe.domain.Repo;
import java.time.Clock;
import java.time.Duration;

/**
 * The one lifecycle namespaces and repos share: crash-safe creation at a claimed prefix, soft
 * delete with a recovery period, and the cleanup pass that repairs unfinished creations and
 * removes what was deleted.
 */
final class LifecycleModule {
  /** How often the cleanup pass runs after the first one. */
  private static final Duration CLEANUP_EVERY = Duration.ofHours(1);

  final PrefixClaimer claimer;
  final OrgNames names;
  final PrefixOwnerCreation creation;
  final SoftDeletion deletion;
  final SoftDeleteStore<Namespace> namespaceDeletes;
  final SoftDeleteStore<Repo> repoDeletes;
  final JooqNamespaceLifecycleStore namespaceLifecycle;
  final CleanupPass cleanup;

  LifecycleModule(Adapters adapters, ServerSettings settings, Clock clock, LifecycleProbe probe,
      AccessPolicy policy, ChangePublisher publisher) {
    var database = adapters.database();
    var registry = adapters.names();
    var claims = adapters.prefixClaims();
    var orgs = adapters.orgs();
    var storage = adapters.storage();
    this.claimer = new PrefixClaimer(orgs, claims, storage);
    this.names = new OrgNames(registry);
    this.namespaceLifecycle = adapters.namespaceLifecycle();
    this.namespaceDeletes = adapters.namespaceDeletes();
    this.repoDeletes = adapters.repoDeletes();
    CreationRepair repair = new CreationRepair(adapters.pendingCreations(), claims, registry,
        orgs, storage, database);
    this.creation = new PrefixOwnerCreation(names, claimer, adapters.pendingCreations(), repair,
        database, publisher, probe);
    this.deletion = new SoftDeletion(registry, clock, settings.namespaceRecoveryPeriod());
    DroppedTablePrefixes droppedTables = new DroppedTablePrefixes(adapters.droppedTableClaims(),
        namespaceLifecycle, claims, orgs, storage);
    this.cleanup = new CleanupPass(repair,
        new SoftDeleteCleanup<>(namespaceDeletes, new NamespaceCleanupSteps(namespaceLifecycle,
            adapters.namespaces(), registry, claims, orgs, storage, droppedTables), database,
            clock, probe),
        new SoftDeleteCleanup<>(repoDeletes,
            new RepoCleanupSteps(registry, claims, orgs, storage), database, clock, probe),
        policy, clock, adapters.locks());
  }

  /** The hourly cleanup; its first pass also finishes whatever a crash left half done. */
  CleanupScheduler scheduler(ServerSettings settings, Workers workers) {
    return new CleanupScheduler(workers, cleanup, settings.firstCleanupAfter(), CLEANUP_EVERY);
  }
}
