package io.floe.adapters.rest.management;

import io.floe.application.port.in.access.AuthenticateUseCase;
import io.floe.domain.Principal;
import io.javalin.config.RoutesConfig;
import io.javalin.http.Context;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.function.Consumer;

/**
 * The caller itself, as the arraylake client asks for it before it creates a repo (the author of
 * its first commit): {@code GET /user} in the shape of the client's {@code UserInfo}. The
 * client's usage diagnostics ({@code POST /user/diagnostics}) are accepted and dropped: Floe
 * collects none. Its interactive login ({@code /auth/...}) does not exist here.
 */
public final class UserRoutes implements Consumer<RoutesConfig> {
  private final AuthenticateUseCase authentication;

  public UserRoutes(AuthenticateUseCase authentication) {
    this.authentication = authentication;
  }

  @Override
  public void accept(RoutesConfig routes) {
    routes.get("/user", handle(r -> {
      Principal principal = r.caller().principal();
      Map<String, Object> body = new LinkedHashMap<>();
      body.put("id", principal.id().toString());
      body.put("first_name", principal.name());
      body.put("family_name", null);
      body.put("email", principal.id() + "@" + ArraylakeRepoRoutes.AUTHOR_DOMAIN);
      body.put("name", principal.name());
      body.put("kind", principal.kind().name().toLowerCase(Locale.ROOT));
      r.ok(body);
    }));
    routes.post("/user/diagnostics", handle(r -> {
      r.caller();
      r.respond(204, null);
    }));
    Consumer<ManagementRequest> noLogin = r -> {
      throw new UnsupportedOperationException("Floe has no interactive login: use an API token "
          + "(ARRAYLAKE_TOKEN, or Client(token=...)) or a JWT of the identity provider Floe "
          + "trusts");
    };
    routes.get("/auth/config", handle(noLogin));
    routes.post("/auth/update-user", handle(noLogin));
  }

  private io.javalin.http.Handler handle(Consumer<ManagementRequest> work) {
    return (Context ctx) -> work.accept(new ManagementRequest(ctx, authentication));
  }
}
