package io.floe.bootstrap;

import io.floe.adapters.icechunk.BucketIcechunkRepositories;
import io.floe.adapters.persistence.AdvisoryLocks;
import io.floe.adapters.persistence.Database;
import io.floe.adapters.persistence.JooqAuditLog;
import io.floe.adapters.persistence.JooqCatalogObjectStore;
import io.floe.adapters.persistence.JooqGrantStore;
import io.floe.adapters.persistence.JooqIdempotencyStore;
import io.floe.adapters.persistence.JooqIdentityDirectory;
import io.floe.adapters.persistence.JooqNamespaceStore;
import io.floe.adapters.persistence.JooqOrgMembershipDirectory;
import io.floe.adapters.persistence.JooqOrgStore;
import io.floe.adapters.persistence.JooqPrefixClaimStore;
import io.floe.adapters.persistence.JooqPrincipalStore;
import io.floe.adapters.persistence.JooqWebSessionStore;
import io.floe.adapters.persistence.SecretCipher;
import io.floe.adapters.persistence.cache.CacheInvalidations;
import io.floe.adapters.persistence.cache.CachingCatalogObjectStore;
import io.floe.adapters.persistence.cache.CachingGrantStore;
import io.floe.adapters.persistence.cache.CachingNamespaceStore;
import io.floe.adapters.persistence.cache.CachingOrgStore;
import io.floe.adapters.persistence.cache.CachingPrincipalStore;
import io.floe.adapters.persistence.cache.TokenUseRecorder;
import io.floe.adapters.persistence.embedded.EmbeddedPostgresServer;
import io.floe.adapters.rest.FloeHttpServer;
import io.floe.adapters.rest.HealthRoutes;
import io.floe.adapters.rest.MetricsRoutes;
import io.floe.adapters.rest.iceberg.IcebergResultCodec;
import io.floe.adapters.rest.ServiceInfoRoutes;
import io.floe.adapters.rest.iceberg.IcebergRoutes;
import io.floe.adapters.rest.identity.JwksIdentityTokens;
import io.floe.adapters.rest.identity.OidcSettings;
import io.floe.adapters.rest.management.AccessManagementRoutes;
import io.floe.adapters.rest.management.AuditRoutes;
import io.floe.adapters.rest.management.HostedServiceRoutes;
import io.floe.adapters.rest.management.OrgAdministrationRoutes;
import io.floe.adapters.rest.management.OrgRoutes;
import io.floe.adapters.rest.web.WebApp;
import io.floe.adapters.rest.web.WebPaths;
import io.floe.adapters.rest.web.WebUseCases;
import io.floe.adapters.rest.management.UserRoutes;
import io.floe.adapters.rest.s3.LocalBucketEndpoint;
import io.floe.adapters.storage.StorageAdapters;
import io.floe.adapters.storage.rows.IcebergTableRows;
import io.floe.adapters.storage.local.LocalPaths;
import io.floe.application.iceberg.MetadataFiles;
import io.floe.application.model.BucketSpec;
import io.floe.application.port.out.CatalogObjectStore;
import io.floe.application.port.out.GrantStore;
import io.floe.application.port.out.IcechunkRepositories;
import io.floe.application.port.out.IdGenerator;
import io.floe.application.port.out.IdentityTokens;
import io.floe.application.port.out.LifecycleProbe;
import io.floe.application.port.out.OrgStore;
import io.floe.application.port.out.PrincipalStore;
import io.floe.application.security.AccessPolicy;
import io.floe.application.service.access.AuthenticationService;
import io.floe.application.service.org.OrgAdministrationService;
import io.floe.application.service.org.OrgProvisioningService;
import io.floe.application.service.lifecycle.PrefixClaimer;
import io.floe.application.security.Operators;
import io.floe.application.service.org.LocalBucketPlacement;
import io.floe.application.service.ReadinessService;
import io.floe.application.service.access.GrantService;
import io.floe.application.service.access.MemberService;
import io.floe.application.service.access.OrgMembers;
import io.floe.application.service.access.TeamService;
import io.floe.application.service.access.TokenService;
import io.floe.application.service.audit.AuditLogService;
import io.floe.application.service.access.WebSessionService;
import io.floe.application.service.catalog.CatalogLocator;
import io.floe.application.service.catalog.TablePlacement;
import io.floe.application.service.repo.objects.LocalRepoCredentials;
import io.floe.application.service.table.TablePreviewService;
import io.floe.application.service.change.ChangePublisher;
import io.floe.application.service.org.OrgDirectoryService;
import io.floe.domain.OrgName;
import io.floe.bootstrap.cli.FloeVersion;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The composition root: builds every adapter and service by hand, provisions the default org on
 * first start, and serves HTTP. Closing it stops everything it started, last started first.
 */
public final class FloeServer implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(FloeServer.class);
  private static final int DATABASE_POOL_SIZE = 16;
  /** How long a web app session lasts at most (less when its API token expires sooner). */
  private static final Duration WEB_SESSION_LIFETIME = Duration.ofHours(12);
  /** What the key of local buckets' S3 credentials is derived for from the sealing key. */
  private static final String LOCAL_CREDENTIALS_KEY = "floe local bucket s3 credentials v1";

  private final ServerSettings settings;
  private final StartedServices started;
  private final OrgProvisioningService provisioning;
  private final OrgStore orgs;
  private final Database database;
  private final FloeHttpServer http;

  private FloeServer(ServerSettings settings, Clock clock, LifecycleProbe probe,
      StartedServices started) {
    this.settings = settings;
    this.started = started;
    createDirectories(settings.dataDir());
    // The key first: a missing or malformed key file stops the start before anything runs.
    SecretCipher cipher = SecretKeys.cipher(settings.secretKey(), settings.dataDir());
    ServerMetrics metrics = started.push(new ServerMetrics());
    Database database = CatalogDatabase.open(settings, DATABASE_POOL_SIZE, started,
        Optional.of(metrics.databasePool()));
    CatalogDatabase.sealCredentials(database, cipher);
    metrics.bindDatabase(database);
    this.database = database;
    StorageAdapters storage = new StorageAdapters();
    started.push(storage);
    // What every request reads is cached; every server on this database hears of changes.
    CacheInvalidations invalidations = CacheInvalidations.start(database);
    started.push(invalidations);
    JooqPrincipalStore principalRows = new JooqPrincipalStore(database);
    TokenUseRecorder tokenUses = new TokenUseRecorder(principalRows::touchTokens);
    started.push(tokenUses);

    IdGenerator ids = new SecureRandomIdGenerator();
    JooqGrantStore grantRows = new JooqGrantStore(database);
    GrantStore grants = new CachingGrantStore(grantRows, invalidations);
    AccessPolicy policy = new AccessPolicy(grants);
    OrgStore orgs = new CachingOrgStore(new JooqOrgStore(database, cipher), invalidations);
    this.orgs = orgs;
    PrincipalStore principals = new CachingPrincipalStore(principalRows, invalidations, tokenUses);
    CachingNamespaceStore namespaces = new CachingNamespaceStore(
        new JooqNamespaceStore(database), invalidations);
    // Pointers too, while this is the only server on the database: it hears of every write first.
    JooqCatalogObjectStore pointers =
        new JooqCatalogObjectStore(database, cipher, invalidations.pointers());
    CatalogObjectStore objects = new CachingCatalogObjectStore(pointers, namespaces, orgs,
        invalidations.pointers());
    metrics.bindCaches(invalidations);
    PrefixClaimer claimer = new PrefixClaimer(orgs, new JooqPrefixClaimStore(database), storage);
    MetadataFiles metadataFiles = new MetadataFiles(storage);
    CatalogLocator locator = new CatalogLocator(orgs, namespaces, objects, policy);
    TablePlacement placement = new TablePlacement(orgs, claimer, ids, storage);

    LocalBucketPlacement localBuckets = new LocalBucketPlacement(
        settings.localBucketRoots().stream().map(Path::toString).toList(), orgs,
        new LocalPaths());
    Operators operators = new Operators(orgs, principals, policy, settings.org());
    this.provisioning = new OrgProvisioningService(orgs, principals, database, ids, clock,
        localBuckets);
    JooqIdentityDirectory identities = new JooqIdentityDirectory(database, tokenUses::flush);
    AuthenticationService authentication = new AuthenticationService(principals, orgs, clock,
        settings.oidc().<IdentityTokens>map(JwksIdentityTokens::new).orElse(IdentityTokens.NONE),
        identities::findByExternalId);
    JooqAuditLog auditLog = new JooqAuditLog(database);
    ChangePublisher publisher = new ChangePublisher(new JooqIdempotencyStore(database), auditLog,
        new IcebergResultCodec(), database, clock, settings.idempotencyLifetime());
    LifecycleModule lifecycle = new LifecycleModule(database, orgs, namespaces, claimer, storage,
        clock, policy, settings.namespaceRecoveryPeriod(), probe, publisher,
        new AdvisoryLocks(database));
    NamespaceModule namespaceModule = new NamespaceModule(database, orgs, namespaces, lifecycle,
        ids, clock, policy, publisher, operators, localBuckets);
    CatalogModule catalog = new CatalogModule(objects, pointers, locator, policy, metadataFiles,
        placement, publisher, database, storage, storage, ids, clock, metrics);
    IcechunkRepositories icechunk = metrics.timed(new BucketIcechunkRepositories(storage));
    RepoModule repoModule = new RepoModule(database, orgs, lifecycle, storage, storage, storage,
        ids, clock, policy, publisher, icechunk, new LocalRepoCredentials(
            cipher.currentKey().derive(LOCAL_CREDENTIALS_KEY), clock,
            StorageAdapters.DEFAULT_CREDENTIAL_LIFETIME));
    RepoTablesModule repoTables = new RepoTablesModule(database, orgs, storage, icechunk, policy,
        metadataFiles, placement, publisher, storage, namespaceModule.icebergNamespaces, catalog);
    // The hourly cleanup; its first pass also finishes whatever a crash left half done.
    started.push(new CleanupScheduler(lifecycle.cleanup, settings.firstCleanupAfter(),
        Duration.ofHours(1)));
    OrgMembers members = new OrgMembers(identities);
    MemberService memberService = new MemberService(identities, members, policy, publisher, ids);
    TeamService teamService = new TeamService(identities, members, policy, publisher);
    TokenService tokenService = new TokenService(identities, members, policy, ids, clock,
        publisher);
    GrantService grantService = new GrantService(grants, namespaces, objects, members, policy,
        ids, clock, publisher);
    AccessManagementRoutes accessRoutes = new AccessManagementRoutes(authentication,
        memberService, teamService, tokenService, grantService);
    OrgDirectoryService orgDirectory =
        new OrgDirectoryService(new JooqOrgMembershipDirectory(database));
    WebSessionService webSessions = new WebSessionService(authentication,
        settings.oidc().filter(OidcSettings::browserSignIn)
            .<IdentityTokens>map(oidc -> new JwksIdentityTokens(oidc.forIdTokens()))
            .orElse(IdentityTokens.NONE),
        identities::findByExternalId, principals, new JooqWebSessionStore(database), ids, clock,
        WEB_SESSION_LIFETIME);
    WebApp web = new WebApp(new WebUseCases(authentication, webSessions, orgDirectory,
        namespaceModule.management, catalog.views.list(), repoTables.tables.load(),
        new TablePreviewService(repoTables.tables.load(), orgs, storage, new IcebergTableRows()),
        grantService,
        memberService, teamService, tokenService, namespaceModule.buckets, repoModule.directory,
        repoModule.browsing), settings.oidc());

    this.http = new FloeHttpServer(new HealthRoutes(new ReadinessService(database)),
        new IcebergRoutes(authentication, repoTables.namespaces, repoTables.tables,
            repoTables.views, settings.idempotencyLifetime()),
        List.of(new MetricsRoutes(metrics::scrape)::register,
            new ServiceInfoRoutes(FloeVersion.build().describe(), WebPaths.ROOT),
            repoModule.routes(authentication, namespaceModule.buckets),
            namespaceModule.routes(authentication), accessRoutes,
            new AuditRoutes(authentication, new AuditLogService(auditLog, policy)),
            new OrgRoutes(authentication, orgDirectory),
            new OrgAdministrationRoutes(authentication, new OrgAdministrationService(
                provisioning, orgs, operators, publisher, this::localDefaultBucket)),
            new UserRoutes(authentication), new LocalBucketEndpoint(repoModule.objects),
            // Last: its patterns are broad, and Floe's own routes must win over them.
            new HostedServiceRoutes()),
        Optional.of(web), metrics);
  }

  /** Starts a server; on any failure, whatever had started is stopped again. */
  public static FloeServer start(ServerSettings settings) {
    return start(settings, Clock.systemUTC(), LifecycleProbe.NONE);
  }

  /**
   * Starts a server with its clock and its probe given: tests move time past a recovery period,
   * and stop a change between two steps to see what the next start makes of it.
   */
  static FloeServer start(ServerSettings settings, Clock clock, LifecycleProbe probe) {
    // Outside the server, so that a failure while it is being built still stops what started.
    StartedServices started = new StartedServices();
    try {
      FloeServer server = new FloeServer(settings, clock, probe, started);
      server.provisionDefaultOrg();
      server.http.start(settings.bind(), settings.port());
      started.push(server.http);
      return server;
    } catch (RuntimeException e) {
      started.close();
      throw e;
    }
  }

  /**
   * Provisions an org with a local default bucket unless it exists; hands its new admin token to
   * {@code deliverToken}. Returns whether the org was created.
   */
  public boolean provisionOrg(OrgName org, Path bucketDirectory, Optional<String> presetToken,
      Consumer<String> deliverToken) {
    createDirectories(bucketDirectory);
    return provisioning.provisionIfAbsent(org, BucketSpec.local("default",
        bucketDirectory.toAbsolutePath().toString()), presetToken, deliverToken);
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

  /** An operator's switch for an org's Iceberg feature flag. */
  public void setIcebergEnabled(OrgName org, boolean enabled) {
    orgs.setIcebergEnabled(orgs.findOrg(org)
        .orElseThrow(() -> new IllegalArgumentException("no org " + org)).id(), enabled);
  }

  public int port() {
    return http.port();
  }

  public String catalogUri() {
    return "http://" + settings.bind() + ":" + port() + IcebergRoutes.ROOT;
  }

  /** Where people open the web app. */
  public String webUri() {
    return "http://" + settings.bind() + ":" + port() + "/";
  }

  public ServerSettings settings() {
    return settings;
  }

  /** Every HTTP route the server serves. */
  public List<FloeHttpServer.Route> routes() {
    return http.routes();
  }

  /** The catalog database, for tests that look at every row. */
  Database database() {
    return database;
  }

  @Override
  public void close() {
    started.close();
  }

  private void provisionDefaultOrg() {
    boolean created = provisionOrg(settings.org(), settings.defaultBucketDir(),
        settings.bootstrapToken(),
        secret -> OwnerOnlyFiles.write(settings.adminTokenFile(), secret));
    if (created) {
      LOG.info("created org '{}' with Iceberg enabled and the default bucket {}", settings.org(),
          settings.defaultBucketDir());
    }
  }

  /** Creates a directory of the server's, and its missing parents, 0750: not world-readable. */
  private static void createDirectories(Path directory) {
    LocalPaths.createDirectories(directory);
  }
}
