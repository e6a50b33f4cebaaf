package io.floe.bootstrap;

import io.floe.adapters.icechunk.BucketRepoReachability;
import io.floe.adapters.persistence.Database;
import io.floe.adapters.persistence.JooqRepoStore;
import io.floe.adapters.rest.management.ArraylakeRepoRoutes;
import io.floe.adapters.rest.management.RepoRoutes;
import io.floe.application.port.in.access.AuthenticateUseCase;
import io.floe.application.port.in.org.BucketManagementUseCase;
import io.floe.application.port.out.BucketStorageProvider;
import io.floe.application.port.out.CredentialVendor;
import io.floe.application.port.out.IcechunkRepositories;
import io.floe.application.port.out.IdGenerator;
import io.floe.application.port.out.MetadataFileIoProvider;
import io.floe.application.port.out.OrgStore;
import io.floe.application.security.AccessPolicy;
import io.floe.application.service.change.ChangePublisher;
import io.floe.application.service.repo.OrgRepos;
import io.floe.application.service.repo.RepoBrowsingService;
import io.floe.application.service.repo.RepoDirectoryService;
import io.floe.application.service.repo.RepoLifecycleService;
import io.floe.application.service.repo.RepoDescriptionService;
import io.floe.application.service.repo.RepoGarbageCollectionService;
import io.floe.application.service.repo.RepoOpeningService;
import io.floe.application.service.repo.objects.LocalRepoCredentials;
import io.floe.application.service.repo.objects.RepoObjectsService;
import io.javalin.config.RoutesConfig;
import java.time.Clock;
import java.util.function.Consumer;

/**
 * The wiring of an org's Icechunk repos: their use cases on the lifecycle repos share with
 * namespaces (crash-safe create, soft delete, cleanup), browsing their repositories, collecting
 * their garbage, and the objects of repos on local buckets that Floe's S3 endpoint serves.
 */
final class RepoModule {
  final RepoLifecycleService lifecycle;
  final RepoDirectoryService directory;
  final RepoBrowsingService browsing;
  final RepoOpeningService opening;
  final RepoDescriptionService descriptions;
  final RepoGarbageCollectionService garbage;
  final RepoObjectsService objects;

  RepoModule(Database database, OrgStore orgs, LifecycleModule lifecycle,
      BucketStorageProvider storage, CredentialVendor credentials, MetadataFileIoProvider fileIo,
      IdGenerator ids, Clock clock, AccessPolicy policy, ChangePublisher publisher,
      IcechunkRepositories icechunk, LocalRepoCredentials localCredentials) {
    JooqRepoStore store = new JooqRepoStore(database);
    OrgRepos orgRepos = new OrgRepos(orgs, store, policy);
    this.lifecycle = new RepoLifecycleService(orgRepos, orgs, store, lifecycle.repoDeletes,
        lifecycle.creation, lifecycle.deletion, lifecycle.names, icechunk, database, ids, clock,
        policy, publisher);
    this.directory = new RepoDirectoryService(orgRepos, store, policy, clock);
    this.browsing = new RepoBrowsingService(orgRepos, icechunk);
    this.opening = new RepoOpeningService(directory, credentials, localCredentials);
    this.objects = new RepoObjectsService(localCredentials, orgs, storage);
    this.descriptions = new RepoDescriptionService(directory, store, publisher);
    this.garbage = new RepoGarbageCollectionService(orgRepos, policy,
        new BucketRepoReachability(storage), fileIo, storage, publisher, clock);
  }

  /**
   * The routes: the arraylake client's first, so that its literal paths
   * ({@code /orgs/{org}/repos/paginated}) win over Floe's {@code /orgs/{org}/repos/{repo}}.
   */
  Consumer<RoutesConfig> routes(AuthenticateUseCase authentication,
      BucketManagementUseCase buckets) {
    Consumer<RoutesConfig> floe =
        new RepoRoutes(authentication, lifecycle, directory, browsing, buckets, garbage)::register;
    return new ArraylakeRepoRoutes(authentication, directory, lifecycle, opening, descriptions,
        buckets).andThen(floe);
  }
}
