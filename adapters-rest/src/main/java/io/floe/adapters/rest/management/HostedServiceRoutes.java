package io.floe.adapters.rest.management;

import io.javalin.config.RoutesConfig;
import io.javalin.http.Handler;
import java.util.List;
import java.util.function.Consumer;

/**
 * Routes of the arraylake client that reach Arraylake's hosted services, which Floe does not
 * have. Each answers 406 (the Iceberg model's unsupported operation) with a sentence saying what
 * is missing and, where Floe has one, what to use instead; the client shows it as the error's
 * message. Register them after every other group: their patterns are broad.
 */
public final class HostedServiceRoutes implements Consumer<RoutesConfig> {
  private enum Method { GET, POST, PUT, PATCH, DELETE }

  private record Unsupported(String path, List<Method> methods, String reason) {}

  private static final List<Method> ALL = List.of(Method.values());

  private static final List<Unsupported> ROUTES = List.of(
      new Unsupported("/compute", ALL, "Floe does not run Arraylake's compute services"),
      new Unsupported("/compute/*", ALL, "Floe does not run Arraylake's compute services"),
      new Unsupported("/orgs/{org}/settings/virtual-chunk-access-policies", ALL,
          "Floe does not manage virtual chunk access policies"),
      new Unsupported("/repos/icechunk/{org}/{repo}/virtual-chunk-containers", ALL,
          "Floe does not authorize virtual chunk containers: they live in the repository's "
              + "Icechunk config, with credentials from the reader"),
      new Unsupported("/orgs/{org}/repos/import", List.of(Method.POST),
          "Floe does not import existing repositories: it creates each repo in an empty prefix "
              + "it claims (create_repo)"),
      new Unsupported("/orgs/{org}/{repo}/status", List.of(Method.PUT),
          "Floe repos are always online: they have no maintenance or offline mode"),
      new Unsupported("/orgs/{org}/buckets/{bucket}/credentials", ALL,
          "Floe vends credentials for one repo's or table's prefix, never for a whole bucket: "
              + "open a repo (get_repo) or load a table with vended credentials"),
      new Unsupported("/orgs/{org}/api-clients/authenticate", ALL,
          "Floe does not look tokens up by their secret: GET /orgs/{org}/tokens lists them"),
      new Unsupported("/orgs/{org}/permissions/check", ALL,
          "Floe has no permission-check route: GET /orgs/{org}/grants lists the grants"));

  @Override
  public void accept(RoutesConfig routes) {
    for (Unsupported route : ROUTES) {
      Handler refuse = ctx -> {
        throw new UnsupportedOperationException(route.reason());
      };
      for (Method method : route.methods()) {
        switch (method) {
          case GET -> routes.get(route.path(), refuse);
          case POST -> routes.post(route.path(), refuse);
          case PUT -> routes.put(route.path(), refuse);
          case PATCH -> routes.patch(route.path(), refuse);
          case DELETE -> routes.delete(route.path(), refuse);
        }
      }
    }
  }
}
