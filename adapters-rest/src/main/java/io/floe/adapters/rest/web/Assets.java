package io.floe.adapters.rest.web;

import io.javalin.config.RoutesConfig;
import io.javalin.http.Context;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.Map;
import java.util.Properties;

/**
 * The web app's static files, from the jar: its own stylesheet and script, and htmx from its
 * WebJar. Nothing is fetched from elsewhere, so the app works where only Floe is reachable.
 */
final class Assets {
  private static final String OWN = "/floe-web/assets/";
  private static final Map<String, String> TYPES = Map.of(
      "css", "text/css; charset=utf-8",
      "js", "text/javascript; charset=utf-8",
      "svg", "image/svg+xml");

  private final Map<String, byte[]> files;

  Assets() {
    String htmx = "/META-INF/resources/webjars/htmx.org/" + htmxVersion() + "/dist/htmx.min.js";
    this.files = Map.of(
        "app.css", read(OWN + "app.css"),
        "app.js", read(OWN + "app.js"),
        "favicon.svg", read(OWN + "favicon.svg"),
        "htmx.min.js", read(htmx));
  }

  void register(RoutesConfig routes) {
    routes.get(WebPaths.ASSETS + "/{file}", this::serve);
  }

  private void serve(Context ctx) {
    String name = ctx.pathParam("file");
    byte[] body = files.get(name);
    if (body == null) {
      ctx.status(404).contentType("text/plain; charset=utf-8").result("No such file");
      return;
    }
    String extension = name.substring(name.lastIndexOf('.') + 1);
    ctx.header("X-Content-Type-Options", "nosniff");
    ctx.header("Cache-Control", "public, max-age=3600");
    ctx.contentType(TYPES.get(extension)).result(body);
  }

  private static String htmxVersion() {
    Properties versions = new Properties();
    try (InputStream in = Assets.class.getResourceAsStream("/floe-web/versions.properties")) {
      versions.load(in);
    } catch (IOException | NullPointerException e) {
      throw new IllegalStateException("the web app's versions.properties is missing", e);
    }
    return versions.getProperty("htmx.version");
  }

  private static byte[] read(String resource) {
    try (InputStream in = Assets.class.getResourceAsStream(resource)) {
      if (in == null) {
        throw new IllegalStateException("missing web asset " + resource);
      }
      return in.readAllBytes();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
