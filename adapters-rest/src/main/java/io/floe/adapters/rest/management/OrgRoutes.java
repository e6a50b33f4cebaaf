package io.floe.adapters.rest.management;

import io.floe.application.port.in.access.AuthenticateUseCase;
import io.floe.application.port.in.org.OrgsUseCase;
import io.floe.application.model.MemberOrg;
import io.javalin.config.RoutesConfig;
import io.javalin.http.Context;
import java.time.Instant;
import java.util.List;
import java.util.Locale;
import java.util.function.Consumer;

/**
 * The caller's orgs: {@code GET /user/orgs} (the shape the arraylake client's {@code get_orgs}
 * parses: id, name, display_name, created, status, permissions) and {@code GET /orgs/{org}}.
 * Floe adds the caller's role and whether Iceberg is enabled; the client ignores extra fields.
 */
public final class OrgRoutes implements Consumer<RoutesConfig> {
  /** One org as the API shows it. */
  record OrgBody(String id, String name, String displayName, String description, Instant created,
      String status, List<String> permissions, String role, boolean icebergEnabled) {
    static OrgBody of(MemberOrg member) {
      String name = member.org().name().value();
      return new OrgBody(member.org().id().toString(), name, name, null, member.createdAt(),
          "active", List.of(), member.role().name().toLowerCase(Locale.ROOT),
          member.org().icebergEnabled());
    }
  }

  private final AuthenticateUseCase authentication;
  private final OrgsUseCase orgs;

  public OrgRoutes(AuthenticateUseCase authentication, OrgsUseCase orgs) {
    this.authentication = authentication;
    this.orgs = orgs;
  }

  @Override
  public void accept(RoutesConfig routes) {
    routes.get("/user/orgs", handle(r -> r.ok(orgs.orgsOf(r.caller()).stream()
        .map(OrgBody::of).toList())));
    routes.get("/orgs/{org}", handle(r -> r.ok(OrgBody.of(orgs.get(r.scope())))));
  }

  private io.javalin.http.Handler handle(Consumer<ManagementRequest> work) {
    return (Context ctx) -> work.accept(new ManagementRequest(ctx, authentication));
  }
}
