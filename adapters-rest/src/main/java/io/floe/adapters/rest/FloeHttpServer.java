package io.floe.adapters.rest;

import io.floe.adapters.rest.http.RequestInput;
import io.floe.adapters.rest.http.RequestTracing;
import io.floe.adapters.rest.iceberg.IcebergErrors;
import io.floe.adapters.rest.iceberg.IcebergRoutes;
import io.floe.adapters.rest.http.RequestThreads;
import io.floe.adapters.rest.http.RetryAfter;
import io.floe.adapters.rest.web.WebApp;
import io.floe.adapters.rest.web.WebPaths;
import io.javalin.Javalin;
import io.javalin.http.Context;
import io.javalin.http.HttpResponseException;
import io.javalin.router.Endpoint;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.Consumer;
import org.apache.iceberg.rest.responses.ErrorResponse;
import org.eclipse.jetty.server.handler.GracefulHandler;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Floe's HTTP server: health, the Iceberg REST catalog, whatever other route groups bootstrap
 * adds, and the web app. Every request gets an id and one access-log line ({@link RequestTracing}),
 * and its input is checked once before its route acts ({@link RequestInput}). Every error of the
 * APIs, ours, the web framework's or the HTTP layer's, is answered in JSON: the Iceberg error model,
 * or the management API's shape under its paths; the web app's as a page. Every answered request
 * is reported to a {@link RequestObserver}. Every 429 and 503 says when to retry
 * ({@link RetryAfter}). On stop, requests in flight finish. Its threads are shared so that slow or
 * anonymous clients cannot take them all ({@link RequestThreads}).
 */
public final class FloeHttpServer implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(FloeHttpServer.class);
  private static final long STOP_TIMEOUT_MS = 20_000;

  private final Javalin app;
  private final Optional<WebApp> web;

  /** A server that tells {@code observer} of every request it answered. */
  public FloeHttpServer(HealthRoutes health, IcebergRoutes iceberg,
      List<Consumer<io.javalin.config.RoutesConfig>> moreRoutes, Optional<WebApp> web,
      RequestObserver observer) {
    this.web = web;
    List<Consumer<io.javalin.config.RoutesConfig>> groups = new ArrayList<>(moreRoutes);
    this.app = Javalin.create(config -> {
      config.startup.showJavalinBanner = false;
      config.startup.showOldJavalinVersionWarning = false;
      config.http.maxRequestSize = RequestInput.MAX_BODY_BYTES;
      config.router.ignoreTrailingSlashes = true;
      config.jetty.threadPool = RequestThreads.pool();
      config.jetty.modifyHttpConfiguration(RequestThreads::limitRates);
      // Header values exactly as sent: Jetty's cache of common headers otherwise matches them
      // ignoring case and hands back its own spelling (text/plain;charset=utf-8), which breaks the
      // S3 endpoint's check of signatures that cover them.
      config.jetty.modifyHttpConfiguration(http -> http.setHeaderCacheCaseSensitive(true));
      config.jetty.modifyServer(server -> {
        server.setStopTimeout(STOP_TIMEOUT_MS);
        server.setHandler(new GracefulHandler(
            RequestThreads.guard(server.getHandler(), WebApp.SESSION_COOKIE)));
        server.setErrorHandler(new JsonErrorHandler());
      });
      config.routes.before(RequestTracing::begin);
      config.routes.before(RequestInput::check);
      config.routes.before(health::refuseWritesWhileWorkersDown);
      config.requestLogger.http((ctx, millis) -> {
        try {
          Endpoint matched = ctx.endpoints().matchedHttpEndpoint();
          observer.answered(ctx.method().name(), matched == null ? "unmatched" : matched.path,
              ctx.statusCode(), millis);
        } finally {
          RequestTracing.end(ctx, millis);
        }
      });
      health.register(config.routes);
      iceberg.register(config.routes);
      groups.forEach(group -> group.accept(config.routes));
      web.ifPresent(app -> app.accept(config.routes));
      config.routes.exception(HttpResponseException.class, this::frameworkError);
      config.routes.exception(Exception.class, (error, ctx) -> error(ctx,
          IcebergErrors.toResponse(error, RequestTracing.id(ctx))));
      config.routes.error(404, "*", ctx -> {
        if (ctx.result() == null || ctx.result().isEmpty()) {
          error(ctx, IcebergErrors.of(404, "NotFoundException",
              "No such route: " + ctx.method() + " " + ctx.path() + catalogUriHint(ctx)));
        }
      });
      config.routes.error(405, "*", ctx -> error(ctx, IcebergErrors.of(405,
          "MethodNotAllowedException", "Method not allowed: " + ctx.method() + " " + ctx.path())));
    });
  }

  public FloeHttpServer start(String host, int port) {
    app.start(host, port);
    LOG.info("listening on http://{}:{}", host, app.port());
    return this;
  }

  public int port() {
    return app.port();
  }

  /** A route this server serves: its HTTP method and path template, e.g. {@code /orgs/{org}}. */
  public record Route(String method, String path) {}

  /** Every route, as the router holds them: what a test of all routes iterates over. */
  public List<Route> routes() {
    return app.unsafe.internalRouter.allHttpHandlers().stream()
        .map(parsed -> parsed.endpoint)
        .filter(endpoint -> endpoint.method.isHttpMethod())
        .map(endpoint -> new Route(endpoint.method.name(), endpoint.path))
        .toList();
  }

  @Override
  public void close() {
    app.stop();
  }

  /**
   * An Iceberg client configured with the server's address instead of the catalog's asks for
   * {@code /v1/config}: tell it where the catalog is.
   */
  private static String catalogUriHint(Context ctx) {
    String path = ctx.path();
    if (path.startsWith(IcebergRoutes.ROOT + "/") || !(path.startsWith("/v1/")
        || path.contains("/v1/config"))) {
      return "";
    }
    String host = ctx.host() == null ? "<server>" : ctx.host();
    return ". Floe's Iceberg REST catalog is under " + IcebergRoutes.ROOT + ": use "
        + ctx.scheme() + "://" + host + IcebergRoutes.ROOT + " as the catalog URI";
  }

  private void frameworkError(HttpResponseException error, Context ctx) {
    String message = error.getStatus() == 404 ? error.getMessage() + catalogUriHint(ctx)
        : error.getMessage();
    error(ctx, IcebergErrors.of(error.getStatus(), IcebergErrors.httpType(error.getStatus()),
        message));
  }

  /**
   * Iceberg routes answer in the Iceberg error model; management routes as their clients expect;
   * the web app with a page.
   */
  private void error(Context ctx, ErrorResponse response) {
    if (RetryAfter.applies(response.code()) && ctx.res().getHeader(RetryAfter.HEADER) == null) {
      // Nothing was written, and the cause is passing; a route may have said when better.
      ctx.header(RetryAfter.HEADER, Integer.toString(RetryAfter.SECONDS));
    }
    if (web.isPresent() && WebPaths.isWebPath(ctx.path())) {
      web.get().errorPage(ctx, response.code(), response.message());
      return;
    }
    ctx.status(response.code()).contentType("application/json")
        .result(ErrorBodies.of(ctx.path(), response));
  }
}
