package io.floe.bootstrap;

import io.floe.adapters.persistence.jooq.Database;
import io.floe.adapters.persistence.jooq.JooqDroppedTableClaimStore;
import io.floe.adapters.persistence.jooq.JooqNameRegistry;
import io.floe.adapters.persistence.jooq.JooqNamespaceLifecycleStore;
import io.floe.adapters.persistence.jooq.JooqPendingCreationStore;
import io.floe.adapters.persistence.jooq.JooqPrefixClaimStore;
import io.floe.adapters.persistence.jooq.JooqSoftDeleteStore;
import io.floe.application.port.out.BucketStorageProvider;
import io.floe.application.port.out.LifecycleProbe;
import io.floe.application.port.out.NamespaceStore;
import io.floe.application.port.out.OrgStore;
import io.floe.application.port.out.ServerWideLocks;
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
  final OrgNames names;
  final PrefixOwnerCreation creation;
  final SoftDeletion deletion;
  final SoftDeleteStore<Namespace> namespaceDeletes;
  final SoftDeleteStore<Repo> repoDeletes;
  final JooqNamespaceLifecycleStore namespaceLifecycle;
  final CleanupPass cleanup;

  LifecycleModule(Database database, OrgStore orgs, NamespaceStore namespaces,
      PrefixClaimer claimer, BucketStorageProvider storage, Clock clock, AccessPolicy policy,
      Duration recoveryPeriod, LifecycleProbe probe, ChangePublisher publisher,
      ServerWideLocks locks) {
    JooqNameRegistry registry = new JooqNameRegistry(database);
    JooqPrefixClaimStore claims = new JooqPrefixClaimStore(database);
    JooqPendingCreationStore pending = new JooqPendingCreationStore(database);
    this.names = new OrgNames(registry);
    this.namespaceLifecycle = new JooqNamespaceLifecycleStore(database);
    this.namespaceDeletes = JooqSoftDeleteStore.namespaces(database);
    this.repoDeletes = JooqSoftDeleteStore.repos(database);
    CreationRepair repair = new CreationRepair(pending, claims, registry, orgs, storage, database);
    this.creation = new PrefixOwnerCreation(names, claimer, pending, repair, database, publisher,
        probe);
    this.deletion = new SoftDeletion(registry, clock, recoveryPeriod);
    DroppedTablePrefixes droppedTables = new DroppedTablePrefixes(
        new JooqDroppedTableClaimStore(database), namespaceLifecycle, claims, orgs, storage);
    this.cleanup = new CleanupPass(repair,
        new SoftDeleteCleanup<>(namespaceDeletes, new NamespaceCleanupSteps(namespaceLifecycle,
            namespaces, registry, claims, orgs, storage, droppedTables), database, clock, probe),
        new SoftDeleteCleanup<>(repoDeletes,
            new RepoCleanupSteps(registry, claims, orgs, storage), database, clock, probe),
        policy, clock, locks);
  }
}
