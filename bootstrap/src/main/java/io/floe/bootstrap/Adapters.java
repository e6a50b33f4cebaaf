package io.floe.bootstrap;

import io.floe.adapters.icechunk.port.BucketIcechunkRepositories;
import io.floe.adapters.icechunk.port.BucketRepoReachability;
import io.floe.adapters.messaging.kafka.KafkaTopicChannel;
import io.floe.adapters.messaging.webhook.HttpWebhookChannel;
import io.floe.adapters.persistence.jooq.AdvisoryLocks;
import io.floe.adapters.persistence.jooq.Database;
import io.floe.adapters.persistence.jooq.JooqAuditLog;
import io.floe.adapters.persistence.jooq.JooqChangeFeed;
import io.floe.adapters.persistence.jooq.JooqCatalogObjectStore;
import io.floe.adapters.persistence.jooq.JooqDroppedTableClaimStore;
import io.floe.adapters.persistence.jooq.JooqMaintenanceJobStore;
import io.floe.adapters.persistence.jooq.JooqMaintenancePolicyStore;
import io.floe.adapters.persistence.jooq.JooqGrantStore;
import io.floe.adapters.persistence.jooq.JooqIdempotencyStore;
import io.floe.adapters.persistence.jooq.JooqIdentityDirectory;
import io.floe.adapters.persistence.jooq.JooqNameRegistry;
import io.floe.adapters.persistence.jooq.JooqNamespaceDirectory;
import io.floe.adapters.persistence.jooq.JooqNamespaceLifecycleStore;
import io.floe.adapters.persistence.jooq.JooqNamespaceStore;
import io.floe.adapters.persistence.jooq.JooqOrgMembershipDirectory;
import io.floe.adapters.persistence.jooq.JooqOrgStore;
import io.floe.adapters.persistence.jooq.JooqPendingCreationStore;
import io.floe.adapters.persistence.jooq.JooqPrefixClaimStore;
import io.floe.adapters.persistence.jooq.JooqPrincipalStore;
import io.floe.adapters.persistence.jooq.JooqRepoStore;
import io.floe.adapters.persistence.jooq.JooqSoftDeleteStore;
import io.floe.adapters.persistence.jooq.JooqWebSessionStore;
import io.floe.adapters.persistence.jooq.JooqWebhookSubscriptionStore;
import io.floe.adapters.persistence.jooq.SecretCipher;
import io.floe.adapters.persistence.cache.CacheInvalidations;
import io.floe.adapters.persistence.cache.CachingCatalogObjectStore;
import io.floe.adapters.persistence.cache.CachingGrantStore;
import io.floe.adapters.persistence.cache.CachingNamespaceStore;
import io.floe.adapters.persistence.cache.CachingOrgStore;
import io.floe.adapters.persistence.cache.CachingPrincipalStore;
import io.floe.adapters.persistence.cache.TokenUseRecorder;
import io.floe.adapters.rest.iceberg.IcebergResultCodec;
import io.floe.adapters.rest.identity.JwksIdentityTokens;
import io.floe.adapters.rest.identity.OidcSettings;
import io.floe.adapters.storage.InetStorageNetwork;
import io.floe.adapters.storage.StorageAdapters;
import io.floe.adapters.storage.local.LocalPaths;
import io.floe.application.health.Workers;
import io.floe.application.model.SubscriptionTarget;
import io.floe.application.port.out.CatalogObjectStore;
import io.floe.application.port.out.DeliveryChannel;
import io.floe.application.port.out.GrantStore;
import io.floe.application.port.out.IcechunkRepositories;
import io.floe.application.port.out.IdGenerator;
import io.floe.application.port.out.IdentityTokens;
import io.floe.application.port.out.NamespaceStore;
import io.floe.application.port.out.OrgStore;
import io.floe.application.port.out.PrincipalStore;
import io.floe.application.port.out.SoftDeleteStore;
import io.floe.application.port.out.StorageNetwork;
import io.floe.application.security.BucketIdentityPolicy;
import io.floe.application.security.IdentityCheckedStorage;
import io.floe.application.security.MaintenanceJobTokens;
import io.floe.application.service.repo.objects.LocalRepoCredentials;
import io.floe.application.service.table.planning.PlanTokens;
import io.floe.domain.Namespace;
import io.floe.domain.Repo;
import java.time.Clock;
import java.util.Optional;

/**
 * Every adapter of a server, each built once: the database and what is stored in it (behind
 * the caches every server on the database keeps in step), the buckets, the identity providers,
 * metrics and ids. The area modules take what they need from here and build no adapter of their
 * own.
 */
record Adapters(
    Database database,
    ServerMetrics metrics,
    // Every bucket, behind the rule on the server's identity and network (BucketIdentityPolicy).
    IdentityCheckedStorage storage,
    BucketIdentityPolicy bucketIdentities,
    LocalPaths localPaths,
    IdGenerator ids,
    OrgStore orgs,
    PrincipalStore principals,
    GrantStore grants,
    NamespaceStore namespaces,
    // The pointer rows beneath objects: the one committer moves them.
    JooqCatalogObjectStore pointers,
    CatalogObjectStore objects,
    JooqIdentityDirectory identities,
    JooqOrgMembershipDirectory orgMemberships,
    JooqWebSessionStore webSessions,
    // Tokens of the identity provider API callers bring, and those of its browser sign-in.
    IdentityTokens apiIdentityTokens,
    IdentityTokens browserIdentityTokens,
    JooqAuditLog auditLog,
    // The audit log's rows as the change feed readers follow.
    JooqChangeFeed changeFeed,
    JooqIdempotencyStore idempotency,
    IcebergResultCodec resultCodec,
    JooqNamespaceDirectory namespaceDirectory,
    JooqRepoStore repos,
    IcechunkRepositories icechunk,
    BucketRepoReachability repoReachability,
    JooqNameRegistry names,
    JooqPrefixClaimStore prefixClaims,
    JooqPendingCreationStore pendingCreations,
    JooqNamespaceLifecycleStore namespaceLifecycle,
    SoftDeleteStore<Namespace> namespaceDeletes,
    SoftDeleteStore<Repo> repoDeletes,
    JooqDroppedTableClaimStore droppedTableClaims,
    JooqMaintenancePolicyStore maintenancePolicies,
    // The maintenance scheduler's feed cursors, table counters and leased jobs.
    JooqMaintenanceJobStore maintenanceJobs,
    AdvisoryLocks locks,
    // The S3 credentials of repos on local buckets, signed with a key derived from the sealing key.
    LocalRepoCredentials localRepoCredentials,
    // The tokens of maintenance jobs run outside the server (Spark), signed with a derived key.
    MaintenanceJobTokens maintenanceJobTokens,
    // The plan ids and plan tasks of server-side scan planning, signed with a derived key.
    PlanTokens planTokens,
    // Subscriptions, their secrets sealed, and the channel that delivers to them: the HTTP
    // client for webhooks, Kafka producers for topics, picked by the target's kind.
    JooqWebhookSubscriptionStore webhookSubscriptions,
    DeliveryChannel<SubscriptionTarget> deliveryChannel,
    // Where hosts lead (public or private addresses), by the JVM's resolver.
    StorageNetwork network,
    // The background threads the server needs; each is kept alive, and /ready reports it down.
    Workers workers) {

  private static final int DATABASE_POOL_SIZE = 16;
  /** What the key of local buckets' S3 credentials is derived for from the sealing key. */
  private static final String LOCAL_CREDENTIALS_KEY = "floe local bucket s3 credentials v1";
  /** What the key of maintenance jobs' tokens is derived for from the sealing key. */
  private static final String MAINTENANCE_JOB_TOKEN_KEY = "floe maintenance job tokens v1";
  /** What the key of scan plans' tokens is derived for from the sealing key. */
  private static final String PLAN_TOKEN_KEY = "floe scan plan tokens v1";

  /**
   * Opens the database (starting the embedded PostgreSQL unless an external one is configured)
   * and builds the adapters on it; whatever must be stopped again is pushed to {@code started}.
   */
  static Adapters open(ServerSettings settings, Clock clock, StartedServices started) {
    // The key first: a missing or malformed key file stops the start before anything runs.
    SecretCipher cipher = SecretKeys.cipher(settings.secretKey(), settings.dataDir());
    ServerMetrics metrics = started.push(new ServerMetrics());
    // Each delivery worker holds a connection for its subscription's server-wide lock.
    Database database = CatalogDatabase.open(settings,
        DATABASE_POOL_SIZE + settings.webhooks().workers(), started,
        Optional.of(metrics.databasePool()));
    CatalogDatabase.sealCredentials(database, cipher);
    metrics.bindDatabase(database);
    StorageAdapters platforms = started.push(new StorageAdapters());
    // What every request reads is cached; every server on this database hears of changes.
    Workers workers = new Workers(Clock.systemUTC());
    CacheInvalidations invalidations = started.push(CacheInvalidations.start(database, workers));
    JooqPrincipalStore principalRows = new JooqPrincipalStore(database);
    TokenUseRecorder tokenUses = started.push(new TokenUseRecorder(principalRows::touchTokens, workers));
    OrgStore orgs = new CachingOrgStore(new JooqOrgStore(database, cipher), invalidations);
    // Every use of a bucket passes the rule on the server's identity and network first.
    StorageNetwork network = new InetStorageNetwork();
    BucketIdentityPolicy bucketIdentities = new BucketIdentityPolicy(settings.bucketIdentities(),
        settings.org(), orgs, network);
    IdentityCheckedStorage storage = IdentityCheckedStorage.of(platforms, bucketIdentities, clock);
    PrincipalStore principals =
        new CachingPrincipalStore(principalRows, invalidations, tokenUses);
    GrantStore grants = new CachingGrantStore(new JooqGrantStore(database), invalidations);
    CachingNamespaceStore namespaces = new CachingNamespaceStore(
        new JooqNamespaceStore(database), invalidations);
    // Pointers too, while this is the only server on the database: it hears of every write first.
    JooqCatalogObjectStore pointers =
        new JooqCatalogObjectStore(database, cipher, invalidations.pointerWrites());
    CatalogObjectStore objects = new CachingCatalogObjectStore(pointers, namespaces, orgs,
        invalidations.pointers());
    // Once every cache is registered with the invalidations: the metrics list them then.
    metrics.bindCaches(invalidations);
    Optional<OidcSettings> oidc = settings.oidc();
    return new Adapters(
        database,
        metrics,
        storage,
        bucketIdentities,
        new LocalPaths(),
        new SecureRandomIdGenerator(),
        orgs,
        principals,
        grants,
        namespaces,
        pointers,
        objects,
        new JooqIdentityDirectory(database, tokenUses::flush),
        new JooqOrgMembershipDirectory(database),
        new JooqWebSessionStore(database),
        oidc.<IdentityTokens>map(JwksIdentityTokens::new).orElse(IdentityTokens.NONE),
        oidc.filter(OidcSettings::browserSignIn)
            .<IdentityTokens>map(provider -> new JwksIdentityTokens(provider.forIdTokens()))
            .orElse(IdentityTokens.NONE),
        new JooqAuditLog(database),
        new JooqChangeFeed(database),
        new JooqIdempotencyStore(database),
        new IcebergResultCodec(),
        new JooqNamespaceDirectory(database),
        new JooqRepoStore(database),
        metrics.timed(new BucketIcechunkRepositories(storage)),
        new BucketRepoReachability(storage),
        new JooqNameRegistry(database),
        new JooqPrefixClaimStore(database),
        new JooqPendingCreationStore(database),
        new JooqNamespaceLifecycleStore(database),
        JooqSoftDeleteStore.namespaces(database),
        JooqSoftDeleteStore.repos(database),
        new JooqDroppedTableClaimStore(database),
        new JooqMaintenancePolicyStore(database),
        new JooqMaintenanceJobStore(database),
        new AdvisoryLocks(database),
        new LocalRepoCredentials(cipher.currentKey().derive(LOCAL_CREDENTIALS_KEY), clock,
            StorageAdapters.DEFAULT_CREDENTIAL_LIFETIME),
        new MaintenanceJobTokens(cipher.currentKey().derive(MAINTENANCE_JOB_TOKEN_KEY), clock),
        new PlanTokens(cipher.currentKey().derive(PLAN_TOKEN_KEY), clock,
            settings.scanPlanning().tokenLifetime()),
        new JooqWebhookSubscriptionStore(database, cipher),
        new DeliveryChannels()
            .with(SubscriptionTarget.Webhook.class, new HttpWebhookChannel(
                settings.webhooks().connectTimeout(), settings.webhooks().attemptTimeout()))
            .with(SubscriptionTarget.Kafka.class, started.push(new KafkaTopicChannel(
                settings.webhooks().connectTimeout(), settings.webhooks().attemptTimeout()))),
        network,
        workers);
  }
}
