package io.floe.adapters.rest.web;

import io.floe.adapters.rest.identity.OidcSettings;
import io.javalin.config.RoutesConfig;
import io.javalin.http.Context;
import java.util.Optional;
import java.util.function.Consumer;

/**
 * The web app, served by the same server as the APIs: server-rendered pages under
 * {@value WebPaths#ROOT} (and {@code /}, which leads into them), driving the same in-ports.
 */
public final class WebApp implements Consumer<RoutesConfig> {
  /** The cookie that carries a signed-in browser's session: its credentials. */
  public static final String SESSION_COOKIE = Cookies.SESSION;

  private final WebUseCases useCases;
  private final Optional<IdentityProviderSignIn> provider;
  private final Pages pages = new Pages();
  private final Assets assets = new Assets();
  private final WebHandlers handlers;

  /** {@code oidc}: people sign in at that provider too when it has a client id for the app. */
  public WebApp(WebUseCases useCases, Optional<OidcSettings> oidc) {
    this.useCases = useCases;
    this.provider = oidc.filter(OidcSettings::browserSignIn).map(IdentityProviderSignIn::new);
    this.handlers = new WebHandlers(useCases.sessions(), useCases.authentication(), pages);
  }

  @Override
  public void accept(RoutesConfig routes) {
    assets.register(routes);
    new SignInRoutes(handlers, useCases.sessions(), useCases.orgs(), provider).register(routes);
    OrgHome home = new OrgHome(handlers, useCases.namespaces(), useCases.repos(),
        useCases.buckets());
    home.register(routes);
    NamespaceView namespace = new NamespaceView(useCases.namespaces(), useCases.views(),
        useCases.grants(), useCases.members());
    new NamespaceForms(handlers, namespace, useCases.namespaces(), useCases.grants(), home::show)
        .register(routes);
    new TableView(handlers, useCases.tables(), useCases.previews(),
        useCases.maintenancePolicies()).register(routes);
    new RepoView(handlers, useCases.repos(), useCases.browseRepos()).register(routes);
    new AdminPages(handlers, useCases.members(), useCases.teams(), useCases.tokens(),
        useCases.buckets()).register(routes);
  }

  /** The page for a path the server has no route for, or a method it does not take there. */
  public void errorPage(Context ctx, int status, String message) {
    WebHandlers.secure(ctx);
    handlers.errors().page(ctx, status, message);
  }
}
