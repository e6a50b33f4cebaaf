package io.floe.bootstrap;

import static org.assertj.core.api.Assertions.assertThat;

import io.floe.adapters.persistence.jooq.Database;
import io.floe.application.health.Workers;
import io.floe.adapters.rest.FloeHttpServer;
import io.floe.adapters.storage.local.LocalPaths;
import io.floe.application.port.out.LifecycleProbe;
import io.floe.application.port.out.MaintenanceJobStore;
import io.floe.application.service.maintenance.MaintenanceScheduler;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import io.floe.application.security.BucketIdentityPolicy;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.UnaryOperator;
import org.apache.iceberg.CatalogProperties;
import org.apache.iceberg.rest.RESTCatalog;

/**
 * A real Floe server for tests: embedded PostgreSQL, local buckets under a temporary directory,
 * HTTP on a free loopback port, time on a {@link TestClock}. Each test can take an org of its own,
 * created by the server's operator through the management API, so tests never see each other's
 * namespaces. Most tests get a server shared by the whole test run from {@link FloeServerTest};
 * {@link #start} gives a test one of its own.
 */
final class TestFloe implements AutoCloseable {
  private static final AtomicInteger ORGS = new AtomicInteger();
  /** What the test servers' operator allows: endpoints on this machine, for every org. */
  static final BucketIdentityPolicy.Allowances LOOPBACK_STORAGE =
      BucketIdentityPolicy.Allowances.none().withPrivateEndpoints(true)
          .withEndpointHosts(java.util.Set.of("127.0.0.1"));
  /** Webhook receivers on this machine, where the tests run theirs; pending events soon seen. */
  static final WebhookSettings LOOPBACK_WEBHOOKS = WebhookSettings.DEFAULTS
      .withPrivateTargets(true).withPollInterval(Duration.ofMillis(100));

  private final Composition composition;
  private final FloeServer server;
  private final Path directory;
  private final TestClock clock;

  private TestFloe(Composition composition, FloeServer server, Path directory, TestClock clock) {
    this.composition = composition;
    this.server = server;
    this.directory = directory;
    this.clock = clock;
  }

  /** A server whose deleted namespaces free their names at once, as the conformance suites expect. */
  static TestFloe start(Path directory) {
    return start(directory, settings -> settings);
  }

  /** Like {@link #start(Path)}, with settings adjusted by {@code adjust} (e.g. an OIDC issuer). */
  static TestFloe start(Path directory, UnaryOperator<TestSettings> adjust) {
    TestClock clock = new TestClock();
    Composition composition = Composition.build(adjust.apply(settings(directory)).build(), clock,
        LifecycleProbe.NONE);
    return new TestFloe(composition, FloeServer.serve(composition), directory, clock);
  }

  /**
   * The settings of a test server in {@code directory}: local buckets may go where operators'
   * orgs get theirs, and where tests put theirs; deleted namespaces free their names at once.
   */
  static TestSettings settings(Path directory) {
    Path data = directory.resolve("data");
    return TestSettings.defaults(data)
        .namespaceRecoveryPeriod(Duration.ZERO)
        .localBucketRoots(List.of(data.resolve("buckets"), directory.resolve("buckets")));
  }

  FloeServer server() {
    return server;
  }

  ServerSettings settings() {
    return composition.settings;
  }

  int port() {
    return server.port();
  }

  String uri() {
    return server.catalogUri();
  }

  /** The server's time: a test moves it instead of waiting. */
  TestClock clock() {
    return clock;
  }

  /** The catalog database, for tests that look at every row. */
  Database database() {
    return composition.adapters.database();
  }

  /** The background threads the server keeps alive, for tests that make one fail. */
  Workers workers() {
    return composition.adapters.workers();
  }

  /**
   * A maintenance scheduler on this server's database and services, as a replica named
   * {@code owner} runs it: a test ticks it itself, and two of them are two replicas.
   */
  MaintenanceScheduler maintenanceScheduler(String owner, int concurrency) {
    return composition.maintenance.scheduler(owner, concurrency);
  }

  /** The maintenance scheduler's jobs, for a test that plays a replica dying mid-job. */
  MaintenanceJobStore maintenanceJobs() {
    return composition.adapters.maintenanceJobs();
  }

  /** Every HTTP route the server serves. */
  List<FloeHttpServer.Route> routes() {
    return composition.http.routes();
  }

  /** An org with Iceberg enabled and a local default bucket; returns its name and admin token. */
  Org newOrg() {
    return newOrg("org-" + ORGS.incrementAndGet());
  }

  /**
   * The org {@code name}, created by the operator like any other, with a local default bucket of
   * its own; returns its name and admin token.
   */
  Org newOrg(String name) {
    return createOrg(port(), operators(), name, bucketDirectory(new Org(name, null)));
  }

  /**
   * Creates the org {@code name} through the management API of the server on {@code port}, as
   * its operator (the admin of its bootstrap org) does, with a local default bucket in {@code
   * bucket}; returns its name and admin token.
   */
  static Org createOrg(int port, Org operators, String name, Path bucket) {
    // Prepared as the server prepares its own directories (0750), as an operator would.
    LocalPaths.createDirectories(bucket);
    ManagementApi.Reply created = new ManagementApi(port, operators.token()).post("/orgs",
        Map.of("name", name, "default_bucket", Map.of("platform", "local",
            "name", bucket.toString(), "auth", Map.of("method", "none"))));
    assertThat(created.status()).as("%s", created.body()).isEqualTo(201);
    return new Org(name, created.body().path("token").asText());
  }

  record Org(String warehouse, String token) {}

  /** The bootstrap org, whose admin (the token in {@code admin.token}) is an operator. */
  Org operators() {
    return operators(settings());
  }

  /** The bootstrap org of a server started with {@code settings}, and its operator's token. */
  static Org operators(ServerSettings settings) {
    try {
      return new Org(settings.org().value(),
          Files.readString(settings.adminTokenFile()).strip());
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** The directory the server keeps its data and its orgs' buckets in. */
  Path directory() {
    return directory;
  }

  /** The directory of {@code org}'s default bucket. */
  Path bucketDirectory(Org org) {
    return directory.resolve("buckets").resolve(org.warehouse());
  }

  /** Where a test's own local buckets go: beneath a root the server allows. */
  Path localBucketDirectory(String name) {
    return directory.resolve("buckets").resolve(name);
  }

  /** Iceberg's own Java REST client, pointed at {@code org}. */
  RESTCatalog catalog(Org org, Map<String, String> extraProperties) {
    Map<String, String> properties = new HashMap<>();
    properties.put(CatalogProperties.URI, uri());
    properties.put(CatalogProperties.WAREHOUSE_LOCATION, org.warehouse());
    properties.put("token", org.token());
    // Said outright: a bearer token is OAuth2 to the client, which otherwise warns that it
    // guessed, and then that it guessed where tokens are exchanged.
    properties.put("rest.auth.type", "oauth2");
    properties.put("oauth2-server-uri", uri() + "/v1/oauth/tokens");
    properties.putAll(extraProperties);
    RESTCatalog catalog = new RESTCatalog();
    catalog.setConf(new org.apache.hadoop.conf.Configuration());
    catalog.initialize("floe", properties);
    return catalog;
  }

  @Override
  public void close() {
    server.close();
  }
}
