package io.floe.bootstrap;

import io.floe.adapters.persistence.DatabaseSettings;
import io.floe.adapters.rest.identity.OidcSettings;
import io.floe.application.iceberg.MetadataLimits;
import io.floe.application.security.BucketIdentityPolicy;
import io.floe.domain.OrgName;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;

/**
 * {@link ServerSettings} as tests vary them, one setting at a time, from the defaults an operator
 * gets. The one place in the tests that calls the settings' canonical constructor.
 */
final class TestSettings {
  /**
   * The test servers' scheduler ticks once a day by itself: tests call its tick on a moved clock
   * instead, and a tick of its own in the middle of a test would take the test's jobs.
   */
  static final Duration IDLE_SCHEDULER = Duration.ofDays(1);

  private String bind;
  private int port;
  private Path dataDir;
  private OrgName org;
  private Optional<DatabaseSettings> database;
  private Duration namespaceRecoveryPeriod;
  private Duration idempotencyLifetime;
  private Optional<String> bootstrapToken;
  private Optional<OidcSettings> oidc;
  private List<Path> localBucketRoots;
  private SecretKeySettings secretKey;
  private Duration firstCleanupAfter;
  private MetadataLimits metadataLimits;
  private BucketIdentityPolicy.Allowances bucketIdentities;
  private MaintenanceSettings maintenance;
  private WebhookSettings webhooks;

  private TestSettings(ServerSettings base) {
    bind = base.bind();
    port = base.port();
    dataDir = base.dataDir();
    org = base.org();
    database = base.database();
    namespaceRecoveryPeriod = base.namespaceRecoveryPeriod();
    idempotencyLifetime = base.idempotencyLifetime();
    bootstrapToken = base.bootstrapToken();
    oidc = base.oidc();
    localBucketRoots = base.localBucketRoots();
    secretKey = base.secretKey();
    firstCleanupAfter = base.firstCleanupAfter();
    metadataLimits = base.metadataLimits();
    bucketIdentities = base.bucketIdentities();
    maintenance = base.maintenance();
    webhooks = base.webhooks();
  }

  /**
   * An operator's defaults with the data in {@code dataDir}, on a free port, but for two: bucket
   * endpoints on 127.0.0.1, where the tests' S3 servers run, are allowed for every org
   * ({@link TestFloe#LOOPBACK_STORAGE}), and so are webhook receivers there, looked for often
   * ({@link TestFloe#LOOPBACK_WEBHOOKS}).
   */
  static TestSettings defaults(Path dataDir) {
    return new TestSettings(ServerSettings.defaults(dataDir)).port(0)
        .bucketIdentities(TestFloe.LOOPBACK_STORAGE)
        .maintenance(new MaintenanceSettings(IDLE_SCHEDULER, 1))
        .webhooks(TestFloe.LOOPBACK_WEBHOOKS);
  }

  /** {@code settings}, to change some of them. */
  static TestSettings from(ServerSettings settings) {
    return new TestSettings(settings);
  }

  TestSettings port(int value) {
    port = value;
    return this;
  }

  TestSettings org(OrgName value) {
    org = value;
    return this;
  }

  TestSettings database(Optional<DatabaseSettings> value) {
    database = value;
    return this;
  }

  TestSettings namespaceRecoveryPeriod(Duration value) {
    namespaceRecoveryPeriod = value;
    return this;
  }

  TestSettings bootstrapToken(String value) {
    bootstrapToken = Optional.of(value);
    return this;
  }

  TestSettings oidc(OidcSettings value) {
    oidc = Optional.of(value);
    return this;
  }

  /** The directories local buckets may be placed beneath; replaces the default. */
  TestSettings localBucketRoots(List<Path> value) {
    localBucketRoots = value;
    return this;
  }

  TestSettings secretKey(SecretKeySettings value) {
    secretKey = value;
    return this;
  }

  /** When the first cleanup pass runs after the start (a minute after, by default). */
  TestSettings firstCleanupAfter(Duration value) {
    firstCleanupAfter = value;
    return this;
  }

  /** How deep and wide schemas and how large metadata files may be. */
  TestSettings metadataLimits(MetadataLimits value) {
    metadataLimits = value;
    return this;
  }

  /** What the operator allows buckets of orgs other than its own (endpoints, identities). */
  TestSettings bucketIdentities(BucketIdentityPolicy.Allowances value) {
    bucketIdentities = value;
    return this;
  }

  /** How the maintenance scheduler ticks; tests drive its ticks themselves by default. */
  TestSettings maintenance(MaintenanceSettings value) {
    maintenance = value;
    return this;
  }

  /** How webhooks are delivered (to receivers on 127.0.0.1, polled often, by default). */
  TestSettings webhooks(WebhookSettings value) {
    webhooks = value;
    return this;
  }

  ServerSettings build() {
    return new ServerSettings(bind, port, dataDir, org, database, namespaceRecoveryPeriod,
        idempotencyLifetime, bootstrapToken, oidc, localBucketRoots, secretKey,
        firstCleanupAfter, metadataLimits, bucketIdentities).withMaintenance(maintenance)
        .withWebhooks(webhooks);
  }
}
