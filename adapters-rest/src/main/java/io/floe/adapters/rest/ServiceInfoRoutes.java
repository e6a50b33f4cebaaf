package io.floe.adapters.rest;

import io.floe.adapters.rest.iceberg.IcebergRoutes;
import io.floe.adapters.rest.management.ManagementJson;
import io.javalin.config.RoutesConfig;
import io.javalin.http.HttpStatus;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.Consumer;

/**
 * {@code GET /}: what this server is, which build, and where its Iceberg REST catalog is, for
 * programs such as the arraylake client's diagnostics (which reads {@code arraylake_api_version}).
 * A browser, which asks for HTML, is sent to the web app instead.
 */
public final class ServiceInfoRoutes implements Consumer<RoutesConfig> {
  private final String version;
  private final String browserHome;

  /**
   * {@code version}: the build, e.g. "0.1.0 (commit abc1234, built 2026-01-01T00:00:00Z)";
   * {@code browserHome}: where a request that accepts HTML is redirected.
   */
  public ServiceInfoRoutes(String version, String browserHome) {
    this.version = version;
    this.browserHome = browserHome;
  }

  @Override
  public void accept(RoutesConfig routes) {
    routes.get("/", ctx -> {
      if (acceptsHtml(ctx.header("Accept"))) {
        ctx.redirect(browserHome, HttpStatus.SEE_OTHER);
        return;
      }
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

  /** Browsers name text/html in their Accept header; HTTP clients and SDKs do not. */
  static boolean acceptsHtml(String accept) {
    return accept != null && Arrays.stream(accept.split(","))
        .map(range -> range.split(";", 2)[0].strip())
        .anyMatch(range -> range.equalsIgnoreCase("text/html"));
  }
}
