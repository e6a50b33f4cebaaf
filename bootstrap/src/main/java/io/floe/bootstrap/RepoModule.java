package io.floe.bootstrap;

import io.floe.adapters.persistence.jooq.JooqRepoStore;
import io.floe.adapters.rest.management.ArraylakeRepoRoutes;
import io.floe.adapters.rest.management.RepoRoutes;
import io.floe.application.iceberg.MetadataFiles;
import io.floe.application.port.in.access.AuthenticateUseCase;
import io.floe.application.port.in.org.BucketManagementUseCase;
import io.floe.application.port.out.IcechunkRepositories;
import io.floe.application.security.AccessPolicy;
import io.floe.application.service.change.ChangePublisher;
import io.floe.application.service.repo.OrgRepos;
import io.floe.application.service.repo.RepoBrowsingService;
import io.floe.application.service.repo.RepoDirectoryService;
import io.floe.application.service.repo.RepoLifecycleService;
import io.floe.application.service.repo.RepoDescriptionService;
import io.floe.application.service.repo.RepoGarbageCollectionService;
import io.floe.application.service.repo.RepoOpeningService;
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

  RepoModule(Adapters adapters, Clock clock, AccessPolicy policy, ChangePublisher publisher,
      LifecycleModule lifecycle, MetadataFiles metadataFiles) {
    JooqRepoStore store = adapters.repos();
    IcechunkRepositories icechunk = adapters.icechunk();
    OrgRepos orgRepos = new OrgRepos(adapters.orgs(), store, policy);
    this.lifecycle = new RepoLifecycleService(orgRepos, adapters.orgs(), store,
        lifecycle.repoDeletes, lifecycle.creation, lifecycle.deletion, lifecycle.names, icechunk,
        adapters.database(), adapters.ids(), clock, policy, publisher);
    this.directory = new RepoDirectoryService(orgRepos, store, policy, clock);
    this.browsing = new RepoBrowsingService(orgRepos, icechunk);
    this.opening = new RepoOpeningService(directory, adapters.storage(),
        adapters.localRepoCredentials());
    this.objects = new RepoObjectsService(adapters.localRepoCredentials(), adapters.orgs(),
        adapters.storage());
    this.descriptions = new RepoDescriptionService(directory, store, publisher);
    this.garbage = new RepoGarbageCollectionService(orgRepos, policy, adapters.repoReachability(),
        metadataFiles, adapters.storage(), publisher, clock);
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
