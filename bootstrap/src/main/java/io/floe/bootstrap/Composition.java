package io.floe.bootstrap;

import io.floe.application.service.work.OrgWorkBudget;
import io.floe.adapters.rest.FloeHttpServer;
import io.floe.adapters.rest.HealthRoutes;
import io.floe.adapters.rest.MetricsRoutes;
import io.floe.adapters.rest.ServiceInfoRoutes;
import io.floe.adapters.rest.iceberg.IcebergRoutes;
import io.floe.adapters.rest.management.HostedServiceRoutes;
import io.floe.adapters.rest.s3.LocalBucketEndpoint;
import io.floe.adapters.rest.web.WebPaths;
import io.floe.adapters.storage.local.LocalPaths;
import io.floe.application.port.out.LifecycleProbe;
import io.floe.application.service.ReadinessService;
import io.floe.bootstrap.cli.FloeVersion;
import java.time.Clock;
import java.util.List;
import java.util.Optional;

/**
 * The composition root: the adapters, built once ({@link Adapters}), handed to one module per
 * area, whose use cases the HTTP server serves. Wiring by hand, no container. Building it starts
 * the database and the background work; {@link #serve()} opens the port.
 */
final class Composition implements AutoCloseable {
  final ServerSettings settings;
  final Adapters adapters;
  final OrgModule orgs;
  final MaintenanceModule maintenance;
  final FloeHttpServer http;
  private final StartedServices started;

  /**
   * Builds a server's parts on {@code clock}, with {@code probe} told of each step of a
   * namespace's or repo's lifecycle; on any failure, whatever had started is stopped again.
   */
  static Composition build(ServerSettings settings, Clock clock, LifecycleProbe probe) {
    // Outside the composition, so that a failure while it is built still stops what started.
    StartedServices started = new StartedServices();
    try {
      return new Composition(settings, clock, probe, started);
    } catch (RuntimeException e) {
      started.close();
      throw e;
    }
  }

  private Composition(ServerSettings settings, Clock clock, LifecycleProbe probe,
      StartedServices started) {
    this.settings = settings;
    this.started = started;
    // 0750, with its missing parents: the server's directory is not world-readable.
    LocalPaths.createDirectories(settings.dataDir());
    this.adapters = Adapters.open(settings, clock, started);
    AuditModule audit = new AuditModule(adapters, settings, clock);
    AccessModule access = new AccessModule(adapters, settings, clock, audit.publisher);
    LifecycleModule lifecycle = new LifecycleModule(adapters, settings, clock, probe,
        access.policy, audit.publisher);
    this.orgs = new OrgModule(adapters, settings, clock, access, audit.publisher);
    RepoTablesModule repoTables = new RepoTablesModule(adapters, access.policy);
    CatalogModule catalog = new CatalogModule(adapters, clock, access.policy, audit.publisher,
        lifecycle.claimer, repoTables, settings.metadataLimits(), settings.scanPlanning());
    started.push(catalog.manifestReaders::shutdownNow);
    NamespaceModule namespaces = new NamespaceModule(adapters, clock, access, audit.publisher,
        lifecycle, orgs, catalog.locator, repoTables.namespaces);
    RepoModule repos = new RepoModule(adapters, clock, access.policy, audit.publisher,
        lifecycle, catalog.files);
    // One budget of heavy work for the whole server: previews and maintenance runs share it.
    OrgWorkBudget heavyWork = OrgWorkBudget.withDefaults(settings.heavyWorkPerOrg());
    this.maintenance = new MaintenanceModule(adapters, clock, access.policy,
        audit.publisher, catalog, settings.maintenance(), heavyWork);
    started.push(lifecycle.scheduler(settings, adapters.workers()));
    maintenance.loop(settings.maintenance(), settings.dataDir(), adapters.workers())
        .ifPresent(started::push);
    EventsModule events = new EventsModule(adapters, settings, clock, access.policy);
    WebhooksModule webhooks = new WebhooksModule(adapters, settings, clock, access.policy,
        audit.publisher, events.visibility);
    started.push(webhooks.start(adapters.workers()));
    WebModule web = new WebModule(adapters, settings, clock, access, orgs, namespaces,
        catalog.views, catalog.tables, repos, maintenance.policies(), heavyWork);
    this.http = new FloeHttpServer(new HealthRoutes(new ReadinessService(adapters.database(), adapters.workers())),
        new IcebergRoutes(access.authentication, namespaces.icebergNamespaces, catalog.tables,
            catalog.views, settings.idempotencyLifetime(), settings.metadataLimits()),
        List.of(new MetricsRoutes(adapters.metrics()::scrape)::register,
            new ServiceInfoRoutes(FloeVersion.build().describe(), WebPaths.ROOT),
            repos.routes(access.authentication, namespaces.buckets),
            namespaces.routes(access.authentication), access.routes(),
            maintenance.routes(access.authentication),
            audit.routes(access.authentication, access.policy),
            new CheckModule(adapters, clock, access.policy, catalog.files)
                .routes(access.authentication),
            events.icebergRoutes(access.authentication, settings),
            events.managementRoutes(access.authentication),
            webhooks.routes(access.authentication),
            orgs.routes(access.authentication), access.userRoutes(), new LocalBucketEndpoint(repos.objects),
            // Last: its patterns are broad, and Floe's own routes must win over them.
            new HostedServiceRoutes()),
        Optional.of(web.app), adapters.metrics());
  }

  /** Provisions the bootstrap org on the first start, then opens the port. */
  void serve() {
    orgs.provisionBootstrapOrg();
    http.start(settings.bind(), settings.port());
    started.push(http);
  }

  /** Stops everything it started, last started first. */
  @Override
  public void close() {
    started.close();
  }
}
