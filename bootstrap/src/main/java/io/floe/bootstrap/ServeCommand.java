package io.floe.bootstrap;

import com.sun.management.HotSpotDiagnosticMXBean;
import io.floe.adapters.persistence.DatabaseSettings;
import io.floe.adapters.rest.identity.OidcSettings;
import io.floe.adapters.storage.spark.SparkSubmitMaintenance;
import io.floe.bootstrap.cli.Durations;
import io.floe.application.health.FatalErrors;
import io.floe.application.iceberg.MetadataLimits;
import io.floe.application.service.work.OrgWorkBudget;
import io.floe.application.security.BucketIdentityPolicy;
import io.floe.application.service.table.planning.ScanPlanningLimits;
import io.floe.application.service.webhooks.RetryPolicy;
import io.floe.domain.OrgName;
import java.io.File;
import java.lang.management.ManagementFactory;
import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.regex.Pattern;
import org.apache.iceberg.rest.RESTCatalogProperties.ScanPlanningMode;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/** {@code floe serve}: runs the catalog server until it is stopped (Ctrl-C or SIGTERM). */
@Command(
    name = "serve",
    mixinStandardHelpOptions = true,
    sortOptions = false,
    description = {
        "Start the Floe server.",
        "",
        "On first start with an empty data directory, Floe creates the org with Iceberg enabled,",
        "a default bucket on the local filesystem under <data-dir>/buckets/default, and an admin",
        "API token written to <data-dir>/admin.token (readable by you only). Later starts reuse",
        "all of it. Without --database-url, an embedded PostgreSQL 18 keeps the catalog under",
        "<data-dir>/postgres (durable; logins only with the password in",
        "<data-dir>/postgres.password). A catalog an older Floe kept on PostgreSQL 14 is",
        "upgraded on first start; the old cluster is kept as <data-dir>/postgres-14.pre-upgrade.",
        "Local buckets are created by operators only, beneath a --local-bucket-root.",
        "The server's own cloud identity (auth method ambient), roles it assumes with it and",
        "custom endpoints are the operators' org's; other orgs' buckets get only what",
        "--ambient-bucket-org, --bucket-role and --bucket-endpoint-host allow, and nobody's",
        "endpoint leads to a loopback or private address without --allow-private-bucket-endpoints.",
        "Bucket credentials are sealed in the database with the key in <data-dir>/secret.key",
        "(generated on first start) unless --secret-key-file names another.",
        "",
        "Every option can also be set by the environment variable named in its description."})
final class ServeCommand implements Callable<Integer> {

  @Option(names = "--port", defaultValue = "${env:FLOE_PORT:-8181}", paramLabel = "PORT",
      description = "HTTP port (env FLOE_PORT; default: ${DEFAULT-VALUE}).")
  int port;

  @Option(names = "--bind", defaultValue = "${env:FLOE_BIND:-127.0.0.1}", paramLabel = "ADDRESS",
      description = "Address to listen on (env FLOE_BIND; default: ${DEFAULT-VALUE}).")
  String bind;

  @Mixin
  DataOptions data;

  @Option(names = "--org", defaultValue = "${env:FLOE_ORG:-my-org}", paramLabel = "NAME",
      description = "The org created on first start; also the warehouse name engines use "
          + "(env FLOE_ORG; default: ${DEFAULT-VALUE}).")
  String org;

  @Option(names = "--namespace-recovery-period",
      defaultValue = "${env:FLOE_NAMESPACE_RECOVERY_PERIOD:-7d}", paramLabel = "DURATION",
      converter = Durations.class,
      description = "How long a deleted namespace can be restored; its name and prefix stay "
          + "claimed until then. 0 frees the name at once "
          + "(env FLOE_NAMESPACE_RECOVERY_PERIOD; default: ${DEFAULT-VALUE}).")
  Duration recoveryPeriod;

  @Option(names = "--idempotency-key-lifetime",
      defaultValue = "${env:FLOE_IDEMPOTENCY_KEY_LIFETIME:-30m}", paramLabel = "DURATION",
      converter = Durations.class,
      description = "How long a response to a request with an Idempotency-Key is replayed "
          + "(env FLOE_IDEMPOTENCY_KEY_LIFETIME; default: ${DEFAULT-VALUE}).")
  Duration idempotencyLifetime;

  @Option(names = "--event-retention",
      defaultValue = "${env:FLOE_EVENT_RETENTION:-7d}", paramLabel = "DURATION",
      converter = Durations.class,
      description = "How long the change feed serves an event; a continuation token older than "
          + "this is answered 410 (env FLOE_EVENT_RETENTION; default: ${DEFAULT-VALUE}).")
  Duration eventRetention;

  @Option(names = "--maintenance-interval",
      defaultValue = "${env:FLOE_MAINTENANCE_INTERVAL:-1m}", paramLabel = "DURATION",
      converter = Durations.class,
      description = "How often the maintenance scheduler reads what commits reported, plans "
          + "jobs and runs those due; at least 1s (env FLOE_MAINTENANCE_INTERVAL; default: "
          + "${DEFAULT-VALUE}).")
  Duration maintenanceInterval;

  @Option(names = "--orphan-grace-floor",
      defaultValue = "${env:FLOE_ORPHAN_GRACE_FLOOR:-24h}", paramLabel = "DURATION",
      converter = Durations.class,
      description = "The shortest grace period orphan removal may use; it can be raised, never "
          + "set under 24h nor under the longest write credential, signature or job token the "
          + "server hands out (env FLOE_ORPHAN_GRACE_FLOOR; default: ${DEFAULT-VALUE}).")
  Duration orphanGraceFloor;

  @Option(names = "--maintenance-concurrency",
      defaultValue = "${env:FLOE_MAINTENANCE_CONCURRENCY:-1}", paramLabel = "N",
      description = "How many maintenance jobs this server runs at once, 0 to 64; 0 runs none "
          + "here (env FLOE_MAINTENANCE_CONCURRENCY; default: ${DEFAULT-VALUE}).")
  int maintenanceConcurrency;

  @Option(names = "--spark-submit", defaultValue = "${env:FLOE_SPARK_SUBMIT}", paramLabel = "PATH",
      description = "The spark-submit that runs the maintenance jobs of policies whose executor "
          + "is spark; without it such jobs fail (env FLOE_SPARK_SUBMIT).")
  Path sparkSubmit;

  @Option(names = "--spark-master", defaultValue = "${env:FLOE_SPARK_MASTER:-local[2]}",
      paramLabel = "URL", description = "The master URL maintenance jobs are submitted to, e.g. "
          + "spark://host:7077, yarn or local[2] (env FLOE_SPARK_MASTER; default: "
          + "${DEFAULT-VALUE}).")
  String sparkMaster;

  @Option(names = "--spark-conf", paramLabel = "KEY=VALUE",
      description = "A Spark configuration pair every maintenance job gets (repeatable), e.g. "
          + "spark.executor.memory=4g or spark.pyspark.python=/usr/bin/python3.")
  List<String> sparkConf = new ArrayList<>();

  @Option(names = "--spark-packages", defaultValue = "${env:FLOE_SPARK_PACKAGES}",
      paramLabel = "COORDINATES",
      description = "Maven coordinates spark-submit adds to the jobs (--packages, "
          + "comma-separated) (env FLOE_SPARK_PACKAGES; default without --spark-jars: "
          + SPARK_RUNTIME + ").")
  String sparkPackages;

  @Option(names = "--spark-jars", defaultValue = "${env:FLOE_SPARK_JARS}", paramLabel = "PATHS",
      description = "Jars spark-submit adds to the jobs (--jars, comma-separated), e.g. "
          + "Iceberg's Spark runtime and AWS bundle instead of --spark-packages "
          + "(env FLOE_SPARK_JARS).")
  String sparkJars;

  @Option(names = "--spark-catalog-uri", defaultValue = "${env:FLOE_SPARK_CATALOG_URI}",
      paramLabel = "URI", description = "The catalog URI maintenance jobs reach this server at "
          + "(env FLOE_SPARK_CATALOG_URI; default: http://<bind address, 127.0.0.1 for any>:"
          + "<port>/iceberg).")
  String sparkCatalogUri;

  @Option(names = "--spark-job-timeout", defaultValue = "${env:FLOE_SPARK_JOB_TIMEOUT:-1h}",
      paramLabel = "DURATION", converter = Durations.class,
      description = "How long a Spark maintenance job may run before it is ended and counted as "
          + "failed; at least 10s (env FLOE_SPARK_JOB_TIMEOUT; default: ${DEFAULT-VALUE}).")
  Duration sparkJobTimeout;
  @Option(names = "--allow-private-webhook-targets",
      defaultValue = "${env:FLOE_ALLOW_PRIVATE_WEBHOOK_TARGETS:-false}",
      description = "Let webhook subscriptions deliver to loopback, link-local and private "
          + "addresses (a receiver on this machine or network); without it a subscription's URL "
          + "must lead to public addresses only (env FLOE_ALLOW_PRIVATE_WEBHOOK_TARGETS; "
          + "default: off).")
  boolean allowPrivateWebhookTargets;

  @Option(names = "--webhook-poll-interval",
      defaultValue = "${env:FLOE_WEBHOOK_POLL_INTERVAL:-1s}", paramLabel = "DURATION",
      converter = Durations.class,
      description = "How often the server looks for events to deliver to webhook subscriptions "
          + "(env FLOE_WEBHOOK_POLL_INTERVAL; default: ${DEFAULT-VALUE}).")
  Duration webhookPollInterval;

  @Option(names = "--webhook-max-backoff",
      defaultValue = "${env:FLOE_WEBHOOK_MAX_BACKOFF:-5m}", paramLabel = "DURATION",
      converter = Durations.class,
      description = "The longest wait between two attempts to deliver a webhook; waits double "
          + "from 1s up to this (env FLOE_WEBHOOK_MAX_BACKOFF; default: ${DEFAULT-VALUE}).")
  Duration webhookMaxBackoff;

  @Option(names = "--webhook-pause-after",
      defaultValue = "${env:FLOE_WEBHOOK_PAUSE_AFTER:-10}", paramLabel = "FAILURES",
      description = "Pause a webhook subscription after this many failed attempts in a row, "
          + "until it is resumed (env FLOE_WEBHOOK_PAUSE_AFTER; default: ${DEFAULT-VALUE}).")
  int webhookPauseAfter;

  @Option(names = "--webhook-attempt-timeout",
      defaultValue = "${env:FLOE_WEBHOOK_ATTEMPT_TIMEOUT:-5s}", paramLabel = "DURATION",
      converter = Durations.class,
      description = "The longest one attempt to deliver an event may take, connecting (at most "
          + "3s of it) and the answer together; an attempt that takes longer has failed (env "
          + "FLOE_WEBHOOK_ATTEMPT_TIMEOUT; default: ${DEFAULT-VALUE}).")
  Duration webhookAttemptTimeout;

  @Option(names = "--webhook-workers",
      defaultValue = "${env:FLOE_WEBHOOK_WORKERS:-4}", paramLabel = "COUNT",
      description = "How many subscriptions the server delivers at once, 1 to 64; half of the "
          + "workers serve only subscriptions whose receivers have answered quickly, so a "
          + "receiver that hangs cannot hold them (env FLOE_WEBHOOK_WORKERS; default: "
          + "${DEFAULT-VALUE}).")
  int webhookWorkers;

  @Option(names = "--bootstrap-token", defaultValue = "${env:FLOE_BOOTSTRAP_TOKEN}",
      paramLabel = "TOKEN",
      description = "On first start, use this secret as the admin token instead of generating "
          + "one: 'ema_' and at least 32 more letters or digits (env FLOE_BOOTSTRAP_TOKEN). "
          + "Ignored once the org exists.")
  String bootstrapToken;

  @Option(names = "--oidc-issuer", defaultValue = "${env:FLOE_OIDC_ISSUER}", paramLabel = "URL",
      description = "Accept bearer JWTs from this OpenID Connect issuer (its 'iss'); needs "
          + "--oidc-jwks-url and --oidc-audience (env FLOE_OIDC_ISSUER; default: API tokens "
          + "only).")
  String oidcIssuer;

  @Option(names = "--oidc-jwks-url", defaultValue = "${env:FLOE_OIDC_JWKS_URL}",
      paramLabel = "URL",
      description = "Where the issuer publishes its signing keys (JWKS), https "
          + "(env FLOE_OIDC_JWKS_URL).")
  String oidcJwksUrl;

  @Option(names = "--oidc-audience", defaultValue = "${env:FLOE_OIDC_AUDIENCE}",
      paramLabel = "AUDIENCE",
      description = "The 'aud' the issuer's tokens must carry for Floe (env FLOE_OIDC_AUDIENCE).")
  String oidcAudience;

  @Option(names = "--oidc-user-claim", defaultValue = "${env:FLOE_OIDC_USER_CLAIM:-sub}",
      paramLabel = "CLAIM",
      description = "The claim whose value is a Floe user's external_id "
          + "(env FLOE_OIDC_USER_CLAIM; default: ${DEFAULT-VALUE}).")
  String oidcUserClaim;

  @Option(names = "--oidc-client-id", defaultValue = "${env:FLOE_OIDC_CLIENT_ID}",
      paramLabel = "ID",
      description = "The web app's client id at the issuer: people sign in to the web app there "
          + "(authorization code with PKCE; endpoints from the issuer's discovery document; the "
          + "redirect URI to register is http(s)://<this server>/ui/sign-in/callback) "
          + "(env FLOE_OIDC_CLIENT_ID; default: API-token sign-in only).")
  String oidcClientId;

  @Option(names = "--oidc-client-secret", defaultValue = "${env:FLOE_OIDC_CLIENT_SECRET}",
      paramLabel = "SECRET",
      description = "The web app's client secret, for issuers that want one "
          + "(env FLOE_OIDC_CLIENT_SECRET; default: a public client).")
  String oidcClientSecret;

  @Option(names = "--local-bucket-root", paramLabel = "DIR",
      description = "A directory local buckets may be created in, by operators only; repeat "
          + "for several (env FLOE_LOCAL_BUCKET_ROOTS, separated by ':'; default: "
          + "<data-dir>/buckets).")
  List<Path> localBucketRoots = new ArrayList<>();

  /** The roots given on the command line, else in the environment; empty means the default. */
  private List<Path> localBucketRoots() {
    if (!localBucketRoots.isEmpty()) {
      return localBucketRoots;
    }
    String fromEnvironment = System.getenv("FLOE_LOCAL_BUCKET_ROOTS");
    if (fromEnvironment == null || fromEnvironment.isBlank()) {
      return List.of();
    }
    return Arrays.stream(fromEnvironment.split(Pattern.quote(File.pathSeparator)))
        .filter(root -> !root.isBlank()).map(Path::of).toList();
  }

  @Option(names = "--bucket-endpoint-host", paramLabel = "HOST[:PORT]",
      description = "A host that buckets of orgs other than the operators' may name as their "
          + "endpoint (or their key's token server); '*.example.com' for its subdomains; repeat "
          + "for several (env FLOE_BUCKET_ENDPOINT_HOSTS, separated by ','; default: none).")
  List<String> bucketEndpointHosts = new ArrayList<>();

  @Option(names = "--bucket-role", paramLabel = "ARN",
      description = "A role the server may assume with its own identity for buckets of orgs "
          + "other than the operators'; a trailing '*' allows every role that begins so; repeat "
          + "for several (env FLOE_BUCKET_ROLES, separated by ','; default: none).")
  List<String> bucketRoles = new ArrayList<>();

  @Option(names = "--ambient-bucket-org", paramLabel = "ORG",
      description = "An org besides the operators' whose buckets may use the server's own "
          + "identity (auth method ambient); repeat for several (env FLOE_AMBIENT_BUCKET_ORGS, "
          + "separated by ','; default: none).")
  List<String> ambientBucketOrgs = new ArrayList<>();

  @Option(names = "--allow-private-bucket-endpoints",
      defaultValue = "${env:FLOE_ALLOW_PRIVATE_BUCKET_ENDPOINTS:-false}",
      description = "Let bucket endpoints lead to loopback, link-local and private addresses, "
          + "e.g. a MinIO on this machine or network; without it no org may name one, the "
          + "operators' included (env FLOE_ALLOW_PRIVATE_BUCKET_ENDPOINTS; default: off).")
  boolean allowPrivateBucketEndpoints;

  /** What buckets of orgs other than the operators' may use of the server's identity. */
  private BucketIdentityPolicy.Allowances bucketIdentities() {
    return new BucketIdentityPolicy.Allowances(
        Set.copyOf(listed(bucketEndpointHosts, "FLOE_BUCKET_ENDPOINT_HOSTS")),
        listed(bucketRoles, "FLOE_BUCKET_ROLES"),
        listed(ambientBucketOrgs, "FLOE_AMBIENT_BUCKET_ORGS").stream().map(OrgName::new)
            .collect(java.util.stream.Collectors.toSet()),
        allowPrivateBucketEndpoints);
  }

  /** The values given on the command line, else those in the environment, separated by ','. */
  private static List<String> listed(List<String> given, String environmentVariable) {
    List<String> values = given;
    if (values.isEmpty()) {
      String fromEnvironment = System.getenv(environmentVariable);
      values = fromEnvironment == null ? List.of() : Arrays.asList(fromEnvironment.split(","));
    }
    return values.stream().map(String::strip).filter(value -> !value.isEmpty()).toList();
  }

  @Mixin
  SecretKeyOptions secretKey;

  @Option(names = "--heavy-work-per-org",
      defaultValue = "${env:FLOE_HEAVY_WORK_PER_ORG:-" + OrgWorkBudget.DEFAULT_PER_ORG + "}",
      paramLabel = "COUNT",
      description = "How many data previews and maintenance runs asked through the API one org "
          + "may run at once; more are refused with 429 and Retry-After (env "
          + "FLOE_HEAVY_WORK_PER_ORG; default: ${DEFAULT-VALUE}; all orgs together: twice the "
          + "processors, at least twice this).")
  int heavyWorkPerOrg;

  @Option(names = "--max-schema-depth",
      defaultValue = "${env:FLOE_MAX_SCHEMA_DEPTH:-" + MetadataLimits.DEFAULT_MAX_SCHEMA_DEPTH + "}",
      paramLabel = "LEVELS",
      description = "How deep the fields of a schema may nest: a top-level column is level 1, "
          + "a struct's fields, a list's element and a map's key and value one below their "
          + "parent (env FLOE_MAX_SCHEMA_DEPTH; default: ${DEFAULT-VALUE}).")
  int maxSchemaDepth;

  @Option(names = "--max-schema-fields",
      defaultValue = "${env:FLOE_MAX_SCHEMA_FIELDS:-" + MetadataLimits.DEFAULT_MAX_SCHEMA_FIELDS
          + "}", paramLabel = "COUNT",
      description = "How many fields one schema may have, nested ones, list elements and map "
          + "keys and values included (env FLOE_MAX_SCHEMA_FIELDS; default: ${DEFAULT-VALUE}).")
  int maxSchemaFields;

  @Option(names = "--max-metadata-size", defaultValue = "${env:FLOE_MAX_METADATA_SIZE}",
      paramLabel = "SIZE", converter = ByteSizes.class,
      description = "The largest metadata file the server reads or writes (uncompressed), and "
          + "the most characters the full names of the schema fields in one request or file may "
          + "add up to; e.g. 16m or 1g (env FLOE_MAX_METADATA_SIZE; default: a sixteenth of the "
          + "JVM's heap ceiling, at least 8m).")
  Long maxMetadataSize;

  @Option(names = "--max-format-version",
      defaultValue = "${env:FLOE_MAX_FORMAT_VERSION:-" + MetadataLimits.SPEC_MAX_FORMAT_VERSION
          + "}", paramLabel = "VERSION",
      description = "The highest table format version a table may be created in, upgraded to "
          + "or registered with, 1 to " + MetadataLimits.SPEC_MAX_FORMAT_VERSION
          + " (env FLOE_MAX_FORMAT_VERSION; default: ${DEFAULT-VALUE}).")
  int maxFormatVersion;

  /** The limits the options give, the size by default from the heap this JVM may grow to. */
  private MetadataLimits metadataLimits() {
    MetadataLimits limits = MetadataLimits.forHeap(Runtime.getRuntime().maxMemory())
        .withMaxSchemaDepth(maxSchemaDepth).withMaxSchemaFields(maxSchemaFields)
        .withMaxFormatVersion(maxFormatVersion);
    return maxMetadataSize == null ? limits : limits.withMaxMetadataBytes(maxMetadataSize);
  }

  @Option(names = "--scan-planning-mode",
      defaultValue = "${env:FLOE_SCAN_PLANNING_MODE:-client}", paramLabel = "MODE",
      converter = ScanPlanningModeConverter.class,
      description = "Where engines plan scans of tables whose scan-planning-mode property says "
          + "nothing: client (the engine reads manifests itself; Iceberg's default) or server "
          + "(the catalog plans; loads tell Iceberg's clients so) (env FLOE_SCAN_PLANNING_MODE; "
          + "default: ${DEFAULT-VALUE}).")
  ScanPlanningMode scanPlanningMode = ScanPlanningMode.CLIENT;

  @Option(names = "--scan-planning-page-size",
      defaultValue = "${env:FLOE_SCAN_PLANNING_PAGE_SIZE:-"
          + ScanPlanningLimits.DEFAULT_TASKS_PER_PAGE + "}", paramLabel = "TASKS",
      description = "The most file scan tasks one scan planning answer holds; a larger plan "
          + "answers plan tasks fetched a page at a time (env FLOE_SCAN_PLANNING_PAGE_SIZE; "
          + "default: ${DEFAULT-VALUE}).")
  int scanPlanningPageSize = ScanPlanningLimits.DEFAULT_TASKS_PER_PAGE;

  /** {@code client} or {@code server}, in any case. */
  static final class ScanPlanningModeConverter
      implements picocli.CommandLine.ITypeConverter<ScanPlanningMode> {
    @Override
    public ScanPlanningMode convert(String value) {
      try {
        return ScanPlanningMode.fromString(value.strip());
      } catch (IllegalArgumentException e) {
        throw new picocli.CommandLine.TypeConversionException(
            "'" + value + "' is not a scan planning mode: use client or server");
      }
    }
  }

  @Option(names = "--log-format", defaultValue = "${env:FLOE_LOG_FORMAT:-text}",
      paramLabel = "FORMAT", converter = LogFormatConverter.class,
      description = "text (lines for people, the default) or json (one JSON object per line, "
          + "with the request id of a request's lines as request_id) (env FLOE_LOG_FORMAT).")
  LogFormat logFormat = LogFormat.TEXT;

  /** {@code text} or {@code json}, in any case. */
  static final class LogFormatConverter implements picocli.CommandLine.ITypeConverter<LogFormat> {
    @Override
    public LogFormat convert(String value) {
      try {
        return LogFormat.valueOf(value.strip().toUpperCase(java.util.Locale.ROOT));
      } catch (IllegalArgumentException e) {
        throw new picocli.CommandLine.TypeConversionException(
            "'" + value + "' is not a log format: use text or json");
      }
    }
  }

  /**
   * An {@link OutOfMemoryError} ends the process: {@code -XX:+ExitOnOutOfMemoryError} (as the
   * {@code floe} script runs the JVM) ends it wherever the error strikes; without it, a thread the
   * error ends still ends the process, and a warning says the option is missing.
   */
  private static void endOnOutOfMemory() {
    Logger log = LoggerFactory.getLogger(ServeCommand.class);
    Thread.setDefaultUncaughtExceptionHandler((thread, error) -> {
      FatalErrors.endProcessIfFatal(error);
      log.error("thread {} ended by an error", thread.getName(), error);
    });
    HotSpotDiagnosticMXBean diagnostics =
        ManagementFactory.getPlatformMXBean(HotSpotDiagnosticMXBean.class);
    if (diagnostics != null
        && !"true".equals(diagnostics.getVMOption("ExitOnOutOfMemoryError").getValue())) {
      log.warn("the JVM runs without -XX:+ExitOnOutOfMemoryError: should its heap run out, a "
          + "request thread could be left half done instead of the process ending; run it with "
          + "that option, as 'floe serve' does");
    }
  }

  /** Iceberg's Spark runtime, the package maintenance jobs get unless told otherwise. */
  /** Iceberg's Spark runtime and the AWS SDK its S3FileIO needs: jobs reach storage with it. */
  static final String SPARK_RUNTIME = "org.apache.iceberg:iceberg-spark-runtime-3.5_2.12:1.11.0,"
      + "org.apache.iceberg:iceberg-aws-bundle:1.11.0";

  /** How Spark maintenance jobs are submitted, when a spark-submit is given. */
  private Optional<SparkSubmitMaintenance.Settings> spark() {
    if (sparkSubmit == null) {
      return Optional.empty();
    }
    String host = bind == null || bind.isBlank() || "0.0.0.0".equals(bind) || "::".equals(bind)
        ? "127.0.0.1" : bind.contains(":") ? "[" + bind + "]" : bind;
    URI catalog = URI.create(sparkCatalogUri != null && !sparkCatalogUri.isBlank()
        ? sparkCatalogUri : "http://" + host + ":" + port + "/iceberg");
    Optional<String> jars = Optional.ofNullable(sparkJars).filter(j -> !j.isBlank());
    Optional<String> packages = Optional.ofNullable(sparkPackages).filter(p -> !p.isBlank())
        .or(() -> jars.isEmpty() ? Optional.of(SPARK_RUNTIME) : Optional.empty());
    return Optional.of(new SparkSubmitMaintenance.Settings(sparkSubmit, sparkMaster, catalog,
        sparkConf, packages, jars, sparkJobTimeout));
  }

  /** The identity provider, when an issuer is given; the rest is then required. */
  private Optional<OidcSettings> oidc() {
    if (oidcIssuer == null || oidcIssuer.isBlank()) {
      return Optional.empty();
    }
    if (oidcJwksUrl == null || oidcJwksUrl.isBlank()) {
      throw new IllegalArgumentException("--oidc-issuer needs --oidc-jwks-url");
    }
    return Optional.of(new OidcSettings(oidcIssuer, URI.create(oidcJwksUrl), oidcAudience,
        oidcUserClaim, Optional.ofNullable(oidcClientId),
        Optional.ofNullable(oidcClientSecret)));
  }

  @Override
  public Integer call() throws InterruptedException {
    logFormat.apply();
    endOnOutOfMemory();
    Optional<DatabaseSettings> database = data.database();
    ServerSettings settings = new ServerSettings(bind, port, data.dataDir, new OrgName(org),
        database, recoveryPeriod, idempotencyLifetime,
        Optional.ofNullable(bootstrapToken).filter(token -> !token.isBlank()), oidc(),
        localBucketRoots(), secretKey.settings()).withMetadataLimits(metadataLimits())
        .withBucketIdentities(bucketIdentities()).withEventRetention(eventRetention)
        .withMaintenance(new MaintenanceSettings(maintenanceInterval, maintenanceConcurrency,
            spark(), orphanGraceFloor))
        .withWebhooks(WebhookSettings.DEFAULTS.withPrivateTargets(allowPrivateWebhookTargets)
            .withPollInterval(webhookPollInterval)
            .withAttemptTimeout(webhookAttemptTimeout)
            .withWorkers(webhookWorkers)
            .withRetries(new RetryPolicy(RetryPolicy.DEFAULT.first(), webhookMaxBackoff,
                webhookPauseAfter)))
        .withHeavyWorkPerOrg(heavyWorkPerOrg)
        .withScanPlanning(ScanPlanningSettings.DEFAULTS.withMode(scanPlanningMode)
            .withTasksPerPage(scanPlanningPageSize));
    FloeServer server = FloeServer.start(settings);
    CountDownLatch stopped = new CountDownLatch(1);
    Runtime.getRuntime().addShutdownHook(new Thread(() -> {
      System.out.println("Floe is stopping: finishing requests in flight");
      server.close();
      stopped.countDown();
    }, "floe-shutdown"));
    System.out.printf("%nFloe is running.%n"
            + "  web app:              %s%n"
            + "  Iceberg REST catalog: %s%n"
            + "  warehouse:            %s%n"
            + "  admin token:          %s%n"
            + "  database:             %s%n"
            + "  local bucket roots:   %s%n%n",
        server.webUri(), server.catalogUri(), settings.org(), settings.adminTokenFile(),
        database.map(DatabaseSettings::jdbcUrl)
            .orElse("embedded PostgreSQL in " + settings.embeddedPostgresDir()),
        settings.localBucketRoots().stream().map(Path::toString)
            .collect(java.util.stream.Collectors.joining(", ")));
    stopped.await();
    return 0;
  }
}
