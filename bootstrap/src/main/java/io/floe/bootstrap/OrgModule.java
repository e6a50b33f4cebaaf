package io.floe.bootstrap;

import io.floe.adapters.rest.management.OrgAdministrationRoutes;
import io.floe.adapters.rest.management.OrgRoutes;
import io.floe.adapters.storage.local.LocalPaths;
import io.floe.application.model.BucketSpec;
import io.floe.application.port.in.access.AuthenticateUseCase;
import io.floe.application.service.change.ChangePublisher;
import io.floe.application.service.org.LocalBucketPlacement;
import io.floe.application.service.org.OrgAdministrationService;
import io.floe.application.service.org.OrgDirectoryService;
import io.floe.application.service.org.OrgProvisioningService;
import io.floe.domain.OrgName;
import io.javalin.config.RoutesConfig;
import java.nio.file.Path;
import java.time.Clock;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The wiring of orgs: the bootstrap org provisioned on first start, the orgs operators create,
 * where their local buckets may go, and which orgs a caller belongs to.
 */
final class OrgModule {
  /** The server's own logger: the lines of a start come from one place. */
  private static final Logger LOG = LoggerFactory.getLogger(FloeServer.class);

  final LocalBucketPlacement localBuckets;
  final OrgDirectoryService directory;
  final OrgAdministrationService administration;
  private final OrgProvisioningService provisioning;
  private final ServerSettings settings;

  OrgModule(Adapters adapters, ServerSettings settings, Clock clock, AccessModule access,
      ChangePublisher publisher) {
    this.settings = settings;
    this.localBuckets = new LocalBucketPlacement(
        settings.localBucketRoots().stream().map(Path::toString).toList(), adapters.orgs(),
        adapters.localPaths());
    this.provisioning = new OrgProvisioningService(adapters.orgs(), adapters.principals(),
        adapters.database(), adapters.ids(), clock, localBuckets,
        adapters.bucketIdentities());
    this.directory = new OrgDirectoryService(adapters.orgMemberships());
    this.administration = new OrgAdministrationService(provisioning, adapters.orgs(),
        access.operators, publisher, this::localDefaultBucket);
  }

  Consumer<RoutesConfig> routes(AuthenticateUseCase authentication) {
    return new OrgRoutes(authentication, directory)
        .andThen(new OrgAdministrationRoutes(authentication, administration));
  }

  /**
   * On the first start, the bootstrap org with a local default bucket, its admin token written
   * to the admin token file (or the operator's preset token).
   */
  void provisionBootstrapOrg() {
    Path bucketDirectory = settings.defaultBucketDir();
    LocalPaths.createDirectories(bucketDirectory);
    boolean created = provisioning.provisionIfAbsent(settings.org(), BucketSpec.local("default",
            bucketDirectory.toAbsolutePath().toString()), settings.bootstrapToken(),
        secret -> OwnerOnlyFiles.write(settings.adminTokenFile(), secret));
    if (created) {
      LOG.info("created org '{}' with Iceberg enabled and the default bucket {}", settings.org(),
          bucketDirectory);
    }
  }

  /**
   * The default bucket of an org an operator creates without one: {@code <first local bucket
   * root>/<org>}, by default {@code <data dir>/buckets/<org>}. The bootstrap org's own bucket is
   * {@code <data dir>/buckets/default}, so an org named {@code default} must bring a bucket of its
   * own. The directory is created when the org is, if its placement is allowed.
   */
  private BucketSpec localDefaultBucket(OrgName org) {
    Path directory = settings.localBucketRoots().get(0).resolve(org.value());
    if (directory.equals(settings.defaultBucketDir())) {
      throw new IllegalArgumentException("the local directory of org '" + org + "' would be the "
          + "bootstrap org's default bucket; give it a default_bucket");
    }
    return BucketSpec.local("default", directory.toAbsolutePath().toString());
  }
}
