package io.floe.adapters.rest;

import io.javalin.config.RoutesConfig;
import java.util.function.Supplier;

/**
 * {@code GET /metrics}: the server's metrics in the Prometheus text format, without a token like
 * the health routes, so that a scraper needs no credentials. They hold counts and latencies per
 * route template, never names of orgs, namespaces or tables.
 */
public final class MetricsRoutes {
  public static final String PATH = "/metrics";
  private static final String CONTENT_TYPE = "text/plain; version=0.0.4; charset=utf-8";

  private final Supplier<String> scrape;

  public MetricsRoutes(Supplier<String> scrape) {
    this.scrape = scrape;
  }

  public void register(RoutesConfig routes) {
    routes.get(PATH, ctx -> ctx.contentType(CONTENT_TYPE).result(scrape.get()));
  }
}
