package io.floe.bootstrap;

import io.floe.application.security.BucketIdentityPolicy;
import io.floe.domain.OrgName;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.iceberg.CatalogProperties;
import org.apache.iceberg.rest.RESTCatalog;

/**
 * A real Floe server for tests: embedded PostgreSQL, local buckets under a temporary directory,
 * HTTP on a free loopback port. Each test can take an org of its own, so tests never see each
 * other's namespaces.
 */
final class TestFloe implements AutoCloseable {
  private static final AtomicInteger ORGS = new AtomicInteger();
  /** What the test servers' operator allows: endpoints on this machine, for every org. */
  static final BucketIdentityPolicy.Allowances LOOPBACK_STORAGE =
      BucketIdentityPolicy.Allowances.none().withPrivateEndpoints(true)
          .withEndpointHosts(java.util.Set.of("127.0.0.1"));

  private final FloeServer server;
  private final Path directory;

  private TestFloe(FloeServer server, Path directory) {
    this.server = server;
    this.directory = directory;
  }

  /** A server whose deleted namespaces free their names at once, as the conformance suites expect. */
  static TestFloe start(Path directory) {
    return start(directory, settings -> settings);
  }

  /** Like {@link #start(Path)}, with settings adjusted by {@code adjust} (e.g. an OIDC issuer). */
  static TestFloe start(Path directory,
      java.util.function.UnaryOperator<ServerSettings> adjust) {
    Path data = directory.resolve("data");
    // Local buckets may go where operators' orgs get theirs, and where tests put theirs; the S3
    // servers tests run are on loopback, which the operator allows every org's buckets.
    ServerSettings settings = ServerSettings.defaults(data)
        .withPort(0)
        .withNamespaceRecoveryPeriod(Duration.ZERO)
        .withLocalBucketRoots(java.util.List.of(data.resolve("buckets"),
            directory.resolve("buckets")))
        .withBucketIdentities(LOOPBACK_STORAGE);
    return new TestFloe(FloeServer.start(adjust.apply(settings)), directory);
  }

  FloeServer server() {
    return server;
  }

  String uri() {
    return server.catalogUri();
  }

  /** An org with Iceberg enabled and a local default bucket; returns its name and admin token. */
  Org newOrg() {
    String name = "org-" + ORGS.incrementAndGet();
    AtomicReference<String> token = new AtomicReference<>();
    server.provisionOrg(new OrgName(name), directory.resolve("buckets").resolve(name),
        java.util.Optional.empty(), token::set);
    return new Org(name, token.get());
  }

  record Org(String warehouse, String token) {}

  /** The bootstrap org, whose admin (the token in {@code admin.token}) is an operator. */
  Org operators() {
    try {
      return new Org(server.settings().org().value(),
          java.nio.file.Files.readString(server.settings().adminTokenFile()).strip());
    } catch (java.io.IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
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
