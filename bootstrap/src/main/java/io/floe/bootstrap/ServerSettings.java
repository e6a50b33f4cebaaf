package io.floe.bootstrap;

import io.floe.adapters.persistence.DatabaseSettings;
import io.floe.adapters.rest.identity.OidcSettings;
import io.floe.application.iceberg.MetadataLimits;
import io.floe.application.security.BucketIdentityPolicy;
import io.floe.application.service.work.OrgWorkBudget;
import io.floe.domain.OrgName;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * Everything a Floe server is started with. An empty {@code database} means the embedded
 * PostgreSQL under {@code <dataDir>/postgres}. Local buckets may only be placed beneath one of
 * {@code localBucketRoots} (empty means {@code <dataDir>/buckets}); a root may not hold the data
 * directory or lie inside the embedded database's. {@code secretKey} says where the key that
 * seals bucket credentials comes from. {@code metadataLimits} bound the schemas and metadata files
 * one request may make the server parse (by default, for the heap the JVM may grow to).
 * {@code bucketIdentities} is what buckets of orgs other than the operators' may use of the
 * server's identity and network ({@link BucketIdentityPolicy}). {@code heavyWorkPerOrg} is how
 * many previews and maintenance runs one org may run at once ({@link OrgWorkBudget}).
 */
public record ServerSettings(
    String bind,
    int port,
    Path dataDir,
    OrgName org,
    Optional<DatabaseSettings> database,
    Duration namespaceRecoveryPeriod,
    Duration idempotencyLifetime,
    Optional<String> bootstrapToken,
    Optional<OidcSettings> oidc,
    List<Path> localBucketRoots,
    SecretKeySettings secretKey,
    Duration firstCleanupAfter,
    MetadataLimits metadataLimits,
    BucketIdentityPolicy.Allowances bucketIdentities,
    Duration eventRetention,
    MaintenanceSettings maintenance,
    WebhookSettings webhooks,
    int heavyWorkPerOrg,
    ScanPlanningSettings scanPlanning) {

  /** When the first cleanup pass runs after a start, finishing what a crash left half done. */
  public static final Duration FIRST_CLEANUP_AFTER = Duration.ofMinutes(1);

  /** How long the change feed serves an event, unless the operator says otherwise. */
  public static final Duration EVENT_RETENTION = Duration.ofDays(7);

  /** As the canonical constructor, with the default budget of heavy work per org. */
  public ServerSettings(String bind, int port, Path dataDir, OrgName org,
      Optional<DatabaseSettings> database, Duration namespaceRecoveryPeriod,
      Duration idempotencyLifetime, Optional<String> bootstrapToken,
      Optional<OidcSettings> oidc, List<Path> localBucketRoots, SecretKeySettings secretKey,
      Duration firstCleanupAfter, MetadataLimits metadataLimits,
      BucketIdentityPolicy.Allowances bucketIdentities, Duration eventRetention,
      MaintenanceSettings maintenance, WebhookSettings webhooks) {
    this(bind, port, dataDir, org, database, namespaceRecoveryPeriod, idempotencyLifetime,
        bootstrapToken, oidc, localBucketRoots, secretKey, firstCleanupAfter, metadataLimits,
        bucketIdentities, eventRetention, maintenance, webhooks, OrgWorkBudget.DEFAULT_PER_ORG,
        ScanPlanningSettings.DEFAULTS);
  }

  /** As the canonical constructor, with the maintenance scheduler's and webhooks' defaults. */
  public ServerSettings(String bind, int port, Path dataDir, OrgName org,
      Optional<DatabaseSettings> database, Duration namespaceRecoveryPeriod,
      Duration idempotencyLifetime, Optional<String> bootstrapToken,
      Optional<OidcSettings> oidc, List<Path> localBucketRoots, SecretKeySettings secretKey,
      Duration firstCleanupAfter, MetadataLimits metadataLimits,
      BucketIdentityPolicy.Allowances bucketIdentities, Duration eventRetention) {
    this(bind, port, dataDir, org, database, namespaceRecoveryPeriod, idempotencyLifetime,
        bootstrapToken, oidc, localBucketRoots, secretKey, firstCleanupAfter, metadataLimits,
        bucketIdentities, eventRetention, MaintenanceSettings.DEFAULTS,
        WebhookSettings.DEFAULTS, OrgWorkBudget.DEFAULT_PER_ORG, ScanPlanningSettings.DEFAULTS);
  }

  /** As the canonical constructor, with the change feed's default retention. */
  public ServerSettings(String bind, int port, Path dataDir, OrgName org,
      Optional<DatabaseSettings> database, Duration namespaceRecoveryPeriod,
      Duration idempotencyLifetime, Optional<String> bootstrapToken,
      Optional<OidcSettings> oidc, List<Path> localBucketRoots, SecretKeySettings secretKey,
      Duration firstCleanupAfter, MetadataLimits metadataLimits,
      BucketIdentityPolicy.Allowances bucketIdentities) {
    this(bind, port, dataDir, org, database, namespaceRecoveryPeriod, idempotencyLifetime,
        bootstrapToken, oidc, localBucketRoots, secretKey, firstCleanupAfter, metadataLimits,
        bucketIdentities, EVENT_RETENTION);
  }

  /**
   * As the canonical constructor, with the first cleanup pass a minute after the start, the
   * default metadata limits for this JVM's heap, and no bucket identity or endpoint allowed beyond
   * the operators' org.
   */
  public ServerSettings(String bind, int port, Path dataDir, OrgName org,
      Optional<DatabaseSettings> database, Duration namespaceRecoveryPeriod,
      Duration idempotencyLifetime, Optional<String> bootstrapToken,
      Optional<OidcSettings> oidc, List<Path> localBucketRoots, SecretKeySettings secretKey) {
    this(bind, port, dataDir, org, database, namespaceRecoveryPeriod, idempotencyLifetime,
        bootstrapToken, oidc, localBucketRoots, secretKey, FIRST_CLEANUP_AFTER,
        MetadataLimits.forHeap(Runtime.getRuntime().maxMemory()),
        BucketIdentityPolicy.Allowances.none());
  }

  /**
   * Settings without an identity provider (only API tokens authenticate), sealing secrets with
   * the key in the data directory.
   */
  public ServerSettings(String bind, int port, Path dataDir, OrgName org,
      Optional<DatabaseSettings> database, Duration namespaceRecoveryPeriod,
      Duration idempotencyLifetime, Optional<String> bootstrapToken) {
    this(bind, port, dataDir, org, database, namespaceRecoveryPeriod, idempotencyLifetime,
        bootstrapToken, Optional.empty(), List.of(), SecretKeySettings.defaults());
  }

  public ServerSettings {
    Objects.requireNonNull(bind, "bind");
    Objects.requireNonNull(dataDir, "dataDir");
    Objects.requireNonNull(org, "org");
    Objects.requireNonNull(database, "database");
    Objects.requireNonNull(bootstrapToken, "bootstrapToken");
    Objects.requireNonNull(oidc, "oidc");
    Objects.requireNonNull(localBucketRoots, "localBucketRoots");
    Objects.requireNonNull(secretKey, "secretKey");
    Objects.requireNonNull(firstCleanupAfter, "firstCleanupAfter");
    Objects.requireNonNull(metadataLimits, "metadataLimits");
    Objects.requireNonNull(bucketIdentities, "bucketIdentities");
    if (port < 0 || port > 65_535) {
      throw new IllegalArgumentException("port must be 0..65535, got " + port);
    }
    if (namespaceRecoveryPeriod.isNegative()) {
      throw new IllegalArgumentException("the namespace recovery period must not be negative");
    }
    if (idempotencyLifetime.isNegative() || idempotencyLifetime.isZero()) {
      throw new IllegalArgumentException("the idempotency-key lifetime must be positive");
    }
    Objects.requireNonNull(eventRetention, "eventRetention");
    Objects.requireNonNull(maintenance, "maintenance");
    Objects.requireNonNull(webhooks, "webhooks");
    if (heavyWorkPerOrg < 1) {
      throw new IllegalArgumentException("an org must be allowed at least one piece of heavy "
          + "work at a time, got " + heavyWorkPerOrg);
    }
    Objects.requireNonNull(scanPlanning, "scanPlanning");
    if (eventRetention.isNegative() || eventRetention.isZero()) {
      throw new IllegalArgumentException("the event retention must be positive");
    }
    dataDir = dataDir.toAbsolutePath().normalize();
    Path data = dataDir;
    localBucketRoots = localBucketRoots.isEmpty() ? List.of(data.resolve("buckets"))
        : localBucketRoots.stream().map(root -> root.toAbsolutePath().normalize()).toList();
    for (Path root : localBucketRoots) {
      if (data.startsWith(root) || root.startsWith(data.resolve("postgres"))) {
        throw new IllegalArgumentException("local bucket root " + root + " must neither hold the "
            + "data directory " + data + " nor lie inside its database");
      }
    }
  }

  public static ServerSettings defaults(Path dataDir) {
    return new ServerSettings("127.0.0.1", 8181, dataDir, new OrgName("my-org"), Optional.empty(),
        Duration.ofDays(7), Duration.ofMinutes(30), Optional.empty(), Optional.empty(),
        List.of(), SecretKeySettings.defaults());
  }

  public ServerSettings withDatabase(Optional<DatabaseSettings> newDatabase) {
    return new ServerSettings(bind, port, dataDir, org, newDatabase, namespaceRecoveryPeriod,
        idempotencyLifetime, bootstrapToken, oidc, localBucketRoots, secretKey, firstCleanupAfter,
        metadataLimits, bucketIdentities, eventRetention, maintenance, webhooks, heavyWorkPerOrg,
        scanPlanning);
  }

  public ServerSettings withSecretKey(SecretKeySettings keys) {
    return new ServerSettings(bind, port, dataDir, org, database, namespaceRecoveryPeriod,
        idempotencyLifetime, bootstrapToken, oidc, localBucketRoots, keys, firstCleanupAfter,
        metadataLimits, bucketIdentities, eventRetention, maintenance, webhooks, heavyWorkPerOrg,
        scanPlanning);
  }

  /** Settings whose requests and metadata files are bound by {@code limits}. */
  public ServerSettings withMetadataLimits(MetadataLimits limits) {
    return new ServerSettings(bind, port, dataDir, org, database, namespaceRecoveryPeriod,
        idempotencyLifetime, bootstrapToken, oidc, localBucketRoots, secretKey, firstCleanupAfter,
        limits, bucketIdentities, eventRetention, maintenance, webhooks, heavyWorkPerOrg,
        scanPlanning);
  }

  /** What the operator allows bucket configurations of orgs other than the operators' own. */
  public ServerSettings withBucketIdentities(BucketIdentityPolicy.Allowances allowances) {
    return new ServerSettings(bind, port, dataDir, org, database, namespaceRecoveryPeriod,
        idempotencyLifetime, bootstrapToken, oidc, localBucketRoots, secretKey, firstCleanupAfter,
        metadataLimits, allowances, eventRetention, maintenance, webhooks, heavyWorkPerOrg,
        scanPlanning);
  }

  /** Settings whose change feed serves events for {@code retention}. */
  public ServerSettings withEventRetention(Duration retention) {
    return new ServerSettings(bind, port, dataDir, org, database, namespaceRecoveryPeriod,
        idempotencyLifetime, bootstrapToken, oidc, localBucketRoots, secretKey, firstCleanupAfter,
        metadataLimits, bucketIdentities, retention, maintenance, webhooks, heavyWorkPerOrg,
        scanPlanning);
  }

  /** Settings whose maintenance scheduler runs as {@code schedule} says. */
  public ServerSettings withMaintenance(MaintenanceSettings schedule) {
    return new ServerSettings(bind, port, dataDir, org, database, namespaceRecoveryPeriod,
        idempotencyLifetime, bootstrapToken, oidc, localBucketRoots, secretKey, firstCleanupAfter,
        metadataLimits, bucketIdentities, eventRetention, schedule, webhooks, heavyWorkPerOrg,
        scanPlanning);
  }

  /** Settings whose webhooks are delivered as {@code settings} say. */
  public ServerSettings withWebhooks(WebhookSettings settings) {
    return new ServerSettings(bind, port, dataDir, org, database, namespaceRecoveryPeriod,
        idempotencyLifetime, bootstrapToken, oidc, localBucketRoots, secretKey, firstCleanupAfter,
        metadataLimits, bucketIdentities, eventRetention, maintenance, settings, heavyWorkPerOrg,
        scanPlanning);
  }

  /** Settings under which one org runs at most {@code perOrg} previews or maintenance runs. */
  public ServerSettings withHeavyWorkPerOrg(int perOrg) {
    return new ServerSettings(bind, port, dataDir, org, database, namespaceRecoveryPeriod,
        idempotencyLifetime, bootstrapToken, oidc, localBucketRoots, secretKey, firstCleanupAfter,
        metadataLimits, bucketIdentities, eventRetention, maintenance, webhooks, perOrg,
        scanPlanning);
  }

  /** Settings whose scan planning works as {@code settings} say. */
  public ServerSettings withScanPlanning(ScanPlanningSettings settings) {
    return new ServerSettings(bind, port, dataDir, org, database, namespaceRecoveryPeriod,
        idempotencyLifetime, bootstrapToken, oidc, localBucketRoots, secretKey, firstCleanupAfter,
        metadataLimits, bucketIdentities, eventRetention, maintenance, webhooks, heavyWorkPerOrg,
        settings);
  }

  public Path adminTokenFile() {
    return dataDir.resolve("admin.token");
  }

  public Path defaultBucketDir() {
    return dataDir.resolve("buckets").resolve("default");
  }

  public Path embeddedPostgresDir() {
    return dataDir.resolve("postgres");
  }
}
