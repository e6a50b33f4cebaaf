package io.floe.adapters.rest;

import io.floe.adapters.rest.iceberg.IcebergRoutes;
import io.floe.adapters.rest.management.ManagementJson;
import io.javalin.config.RoutesConfig;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.Consumer;

/**
 * {@code GET /}: what this server is, which build, and where its Iceberg REST catalog is, for
 * people and for the arraylake client's diagnostics (which reads {@code arraylake_api_version}).
 */
public final class ServiceInfoRoutes implements Consumer<RoutesConfig> {
  private final String version;

  /** {@code version}: the build, e.g. "0.1.0 (commit abc1234, built 2026-01-01T00:00:00Z)". */
  public ServiceInfoRoutes(String version) {
    this.version = version;
  }

  @Override
  public void accept(RoutesConfig routes) {
    routes.get("/", ctx -> {
      String server = ctx.scheme() + "://" + (ctx.host() == null ? "127.0.0.1:" + ctx.port()
          : ctx.host());
      Map<String, Object> body = new LinkedHashMap<>();
      body.put("service", "floe");
      body.put("version", version);
      body.put("arraylake_api_version", "floe " + version);
      body.put("iceberg_catalog_uri", server + IcebergRoutes.ROOT);
      body.put("management_api", server + "/orgs");
      ctx.contentType("application/json").result(ManagementJson.write(body));
    });
  }
}
