package io.floe.bootstrap;

import com.zaxxer.hikari.metrics.MetricsTrackerFactory;
import com.zaxxer.hikari.metrics.micrometer.MicrometerMetricsTrackerFactory;
import io.floe.adapters.persistence.cache.CacheInvalidations;
import io.floe.adapters.persistence.cache.InvalidatedCache;
import io.floe.adapters.persistence.jooq.Database;
import io.floe.adapters.rest.RequestObserver;
import io.floe.application.port.out.CommitEvents;
import io.floe.application.port.out.MaintenanceEvents;
import io.floe.application.port.out.IcechunkRepositories;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.Timer;
import io.micrometer.core.instrument.binder.cache.CaffeineCacheMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmGcMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmMemoryMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmThreadMetrics;
import io.micrometer.core.instrument.binder.system.ProcessorMetrics;
import io.micrometer.core.instrument.binder.system.UptimeMetrics;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;

/**
 * What {@code GET /metrics} shows, in Prometheus' format: request latency per route template and
 * status, the database pool, the statements and commits sent to PostgreSQL, the caches, commits
 * under contention, Icechunk commits, and the JVM.
 */
final class ServerMetrics implements RequestObserver, CommitEvents, MaintenanceEvents,
    AutoCloseable {
  private record RequestKind(String method, String route, int status) {}

  private static final Duration SHORTEST = Duration.ofMillis(1);
  private static final Duration LONGEST = Duration.ofSeconds(30);

  private final PrometheusMeterRegistry registry =
      new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
  private final JvmGcMetrics gc = new JvmGcMetrics();
  /** The timer of each kind of request: route templates are few, so this stays small. */
  private final Map<RequestKind, Timer> requests = new ConcurrentHashMap<>();
  private final Counter lostRaces;
  private final Counter plannedUnderLocks;
  private final Counter refused;
  private final Counter maintenanceRuns;
  private final Counter maintenanceFailures;

  ServerMetrics() {
    new JvmMemoryMetrics().bindTo(registry);
    new JvmThreadMetrics().bindTo(registry);
    new ProcessorMetrics().bindTo(registry);
    new UptimeMetrics().bindTo(registry);
    gc.bindTo(registry);
    lostRaces = Counter.builder("floe.commit.lost.races")
        .description("Commit attempts that lost the race for a pointer and were planned again")
        .register(registry);
    plannedUnderLocks = Counter.builder("floe.commit.locked.replans")
        .description("Commits planned again under row locks after losing races")
        .register(registry);
    refused = Counter.builder("floe.commit.conflicts")
        .description("Commits refused as conflicts (409)")
        .register(registry);
    maintenanceRuns = Counter.builder("floe.maintenance.runs")
        .description("Table maintenance runs that finished (dry runs not counted)")
        .register(registry);
    maintenanceFailures = Counter.builder("floe.maintenance.failures")
        .description("Table maintenance runs that failed with an error")
        .register(registry);
  }

  /** The pool's connections, waits and timeouts, as HikariCP reports them. */
  MetricsTrackerFactory databasePool() {
    return new MicrometerMetricsTrackerFactory(registry);
  }

  /** Statements and commits sent to PostgreSQL: round trips, whatever the request. */
  void bindDatabase(Database database) {
    FunctionCounter.builder("floe.db.statements", database, Database::statementsExecuted)
        .description("SQL statements sent to PostgreSQL").register(registry);
    FunctionCounter.builder("floe.db.commits", database, Database::commits)
        .description("Transactions committed in PostgreSQL").register(registry);
  }

  /**
   * Hits, misses, evictions and sizes of every cache, whether they are in use, and whether kept
   * pointers are served.
   */
  void bindCaches(CacheInvalidations invalidations) {
    for (InvalidatedCache<?, ?> cache : invalidations.caches()) {
      CaffeineCacheMetrics.monitor(registry, cache.statistics(), cache.name());
    }
    CaffeineCacheMetrics.monitor(registry, invalidations.pointers().statistics(), "pointers");
    Gauge.builder("floe.pointers.served", invalidations, it -> it.pointersServed() ? 1 : 0)
        .description("1 while loads are answered with tables' metadata pointers kept in memory, "
            + "0 while every load reads its pointer from PostgreSQL")
        .register(registry);
    Gauge.builder("floe.cache.trusted", invalidations, it -> it.trusted() ? 1 : 0)
        .description("1 while the caches are used, 0 while cache invalidations are unavailable")
        .register(registry);
  }

  /** Icechunk repositories whose commits are timed. */
  IcechunkRepositories timed(IcechunkRepositories repositories) {
    return new TimedIcechunkRepositories(repositories, Timer.builder("floe.icechunk.commits")
        .description("Icechunk commits Floe makes (a new repository's first commit)")
        .publishPercentileHistogram()
        .minimumExpectedValue(SHORTEST)
        .maximumExpectedValue(LONGEST)
        .register(registry));
  }

  /** The registry, for the meters an area keeps itself ({@link WebhookDeliveryMetrics}). */
  io.micrometer.core.instrument.MeterRegistry registry() {
    return registry;
  }

  String scrape() {
    return registry.scrape();
  }

  @Override
  public void answered(String method, String route, int status, double millis) {
    requests.computeIfAbsent(new RequestKind(method, route, status), kind ->
        Timer.builder("http.server.requests")
            .description("Requests answered, by method, route template and status")
            .tags("method", method, "route", route, "status", Integer.toString(status))
            .publishPercentileHistogram()
            .minimumExpectedValue(SHORTEST)
            .maximumExpectedValue(LONGEST)
            .register(registry))
        .record((long) (millis * 1_000_000), TimeUnit.NANOSECONDS);
  }

  @Override
  public void lostRace() {
    lostRaces.increment();
  }

  @Override
  public void plannedUnderLocks() {
    plannedUnderLocks.increment();
  }

  @Override
  public void refused() {
    refused.increment();
  }

  @Override
  public void ran() {
    maintenanceRuns.increment();
  }

  @Override
  public void failed() {
    maintenanceFailures.increment();
  }

  @Override
  public void jobEnded(io.floe.application.model.MaintenanceJob.State state) {
    // One series per state (five at most): pending counts attempts that failed and wait to retry.
    Counter.builder("floe.maintenance.jobs")
        .description("Attempts of scheduled maintenance jobs, by the state each ended in")
        .tag("state", state.wire())
        .register(registry).increment();
  }

  @Override
  public void close() {
    gc.close();
    registry.close();
  }
}
