package io.floe.bootstrap;

import io.floe.adapters.icechunk.BucketIcechunkRepositories;
import io.floe.adapters.persistence.Database;
import io.floe.adapters.persistence.JooqNameRegistry;
import io.floe.adapters.persistence.JooqOrgStore;
import io.floe.adapters.persistence.JooqPendingCreationStore;
import io.floe.adapters.persistence.JooqPrefixClaimStore;
import io.floe.adapters.persistence.JooqRepoLifecycleStore;
import io.floe.adapters.persistence.JooqRepoStore;
import io.floe.adapters.rest.management.ArraylakeRepoRoutes;
import io.floe.adapters.rest.management.RepoRoutes;
import io.floe.application.port.in.AuthenticateUseCase;
import io.floe.application.port.in.BucketManagementUseCase;
import io.floe.application.port.out.BucketStorageProvider;
import io.floe.application.port.out.CredentialVendor;
import io.floe.application.port.out.IdGenerator;
import io.floe.application.port.out.LifecycleProbe;
import io.floe.application.security.AccessPolicy;
import io.floe.application.service.CreationRepair;
import io.floe.application.service.PrefixClaimer;
import io.floe.application.service.RepoCleanup;
import io.floe.application.service.RepoCreation;
import io.floe.application.service.RepoDescription;
import io.floe.application.service.RepoOpening;
import io.floe.application.service.RepoService;
import io.javalin.config.RoutesConfig;
import java.time.Clock;
import java.time.Duration;
import java.util.function.Consumer;

/**
 * The wiring of an org's Icechunk repos: the use cases, the crash-safe create that shares the
 * namespaces' journal of pending creations, and the repos' part of the cleanup pass. Repos share
 * the namespaces' soft-delete lifecycle, recovery period included.
 */
final class RepoModule {
  final RepoService repos;
  final RepoOpening opening;
  final RepoDescription descriptions;
  final RepoCleanup cleanup;

  RepoModule(Database database, JooqOrgStore orgs, PrefixClaimer claimer,
      BucketStorageProvider storage, CredentialVendor credentials, IdGenerator ids, Clock clock,
      AccessPolicy policy, Duration recoveryPeriod, LifecycleProbe probe) {
    JooqRepoStore store = new JooqRepoStore(database);
    JooqRepoLifecycleStore lifecycle = new JooqRepoLifecycleStore(database);
    JooqNameRegistry names = new JooqNameRegistry(database);
    JooqPrefixClaimStore claims = new JooqPrefixClaimStore(database);
    JooqPendingCreationStore pending = new JooqPendingCreationStore(database);
    BucketIcechunkRepositories icechunk = new BucketIcechunkRepositories(storage);
    CreationRepair repair = new CreationRepair(pending, claims, names, orgs, storage, database);
    RepoCreation creation = new RepoCreation(store, names, claimer, pending, repair, icechunk,
        database, probe);
    this.repos = new RepoService(orgs, store, lifecycle, creation, names, icechunk, database, ids,
        clock, policy, recoveryPeriod);
    this.opening = new RepoOpening(repos, credentials);
    this.descriptions = new RepoDescription(repos, store);
    this.cleanup = new RepoCleanup(lifecycle, names, claims, orgs, storage, database, clock,
        probe);
  }

  /**
   * The routes: the arraylake client's first, so that its literal paths
   * ({@code /orgs/{org}/repos/paginated}) win over Floe's {@code /orgs/{org}/repos/{repo}}.
   */
  Consumer<RoutesConfig> routes(AuthenticateUseCase authentication,
      BucketManagementUseCase buckets) {
    Consumer<RoutesConfig> floe = new RepoRoutes(authentication, repos, buckets)::register;
    return new ArraylakeRepoRoutes(authentication, repos, opening, descriptions).andThen(floe);
  }
}
