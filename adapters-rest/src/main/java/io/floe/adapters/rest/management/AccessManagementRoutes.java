package io.floe.adapters.rest.management;

import com.fasterxml.jackson.databind.JsonNode;
import io.floe.application.port.in.access.AuthenticateUseCase;
import io.floe.application.port.in.access.GrantsUseCase;
import io.floe.application.port.in.access.MembersUseCase;
import io.floe.application.port.in.access.TeamsUseCase;
import io.floe.application.port.in.access.TokensUseCase;
import io.floe.application.model.CreateNamespaceCommand;
import io.floe.application.model.Invalid;
import io.floe.domain.Principal;
import io.javalin.config.RoutesConfig;
import io.javalin.http.Context;
import io.javalin.http.Handler;
import java.util.Optional;
import java.util.UUID;
import java.util.function.Consumer;

/**
 * Identity and access of an org under {@code /orgs/{org}}: users, API clients, teams and their
 * members, roles, API tokens and grants. Handlers only translate between HTTP and the use cases.
 */
public final class AccessManagementRoutes implements Consumer<RoutesConfig> {
  private static final String ORG = "/orgs/{org}";
  private static final String MEMBER = ORG + "/members/{id}";
  private static final String TEAM_MEMBERS = ORG + "/teams/{id}/members";

  private final AuthenticateUseCase authentication;
  private final MembersUseCase members;
  private final TeamsUseCase teams;
  private final TokensUseCase tokens;
  private final GrantsUseCase grants;

  public AccessManagementRoutes(AuthenticateUseCase authentication, MembersUseCase members,
      TeamsUseCase teams, TokensUseCase tokens, GrantsUseCase grants) {
    this.authentication = authentication;
    this.members = members;
    this.teams = teams;
    this.tokens = tokens;
    this.grants = grants;
  }

  @Override
  public void accept(RoutesConfig routes) {
    principals(routes, ORG + "/users", Principal.Kind.USER);
    principals(routes, ORG + "/api-clients", Principal.Kind.API_CLIENT);
    principals(routes, ORG + "/teams", Principal.Kind.TEAM);
    routes.get(ORG + "/members", handle(r -> r.ok(members.members(r.scope(), Optional.empty())
        .stream().map(AccessJson.PrincipalBody::of).toList())));
    routes.patch(MEMBER, handle(r -> r.ok(AccessJson.PrincipalBody.of(members.setRole(r.scope(),
        id(r), AccessRequests.role(new JsonFields(r.body(JsonNode.class)).text("role")
            .orElseThrow(() -> Invalid.because("role is required"))))))));
    routes.delete(MEMBER, handle(r -> {
      members.removeMember(r.scope(), id(r));
      r.respond(204, null);
    }));
    routes.get(TEAM_MEMBERS, handle(r -> r.ok(teams.teamMembers(r.scope(), id(r)).stream()
        .map(AccessJson.PrincipalBody::of).toList())));
    routes.post(TEAM_MEMBERS, handle(r -> {
      teams.addTeamMember(r.scope(), id(r), AccessRequests.id(
          new JsonFields(r.body(JsonNode.class)).text("principal_id").orElse(null),
          "principal_id"));
      r.respond(204, null);
    }));
    routes.delete(TEAM_MEMBERS + "/{member}", handle(r -> {
      teams.removeTeamMember(r.scope(), id(r),
          AccessRequests.id(r.http().pathParam("member"), "member"));
      r.respond(204, null);
    }));
    routes.post(ORG + "/tokens", handle(r -> r.respond(201, AccessJson.TokenBody.of(
        tokens.issueToken(r.scope(), AccessRequests.token(r))))));
    routes.get(ORG + "/tokens", handle(r -> r.ok(tokens.tokens(r.scope(),
            principalFilter(r)).stream().map(AccessJson.TokenBody::of).toList())));
    routes.delete(ORG + "/tokens/{id}", handle(r -> r.ok(AccessJson.TokenBody.of(
        tokens.revokeToken(r.scope(), id(r))))));
    routes.post(ORG + "/grants", handle(r -> r.respond(201, AccessJson.GrantBody.of(
        grants.grant(r.scope(), AccessRequests.grant(r))))));
    routes.get(ORG + "/grants", handle(r -> r.ok(grants.grants(r.scope(),
        new QueryParams(r.http()).text("namespace")
            .map(name -> CreateNamespaceCommand.name(name, "namespace")),
        principalFilter(r)).stream().map(AccessJson.GrantBody::of).toList())));
    routes.delete(ORG + "/grants/{id}", handle(r -> {
      grants.revokeGrant(r.scope(), id(r));
      r.respond(204, null);
    }));
  }

  private void principals(RoutesConfig routes, String path, Principal.Kind kind) {
    routes.get(path, handle(r -> r.ok(members.members(r.scope(), Optional.of(kind)).stream()
        .map(AccessJson.PrincipalBody::of).toList())));
    routes.post(path, handle(r -> r.respond(201, AccessJson.PrincipalBody.of(
        members.createPrincipal(r.scope(), AccessRequests.principal(r, kind))))));
  }

  private static Optional<UUID> principalFilter(ManagementRequest r) {
    return new QueryParams(r.http()).text("principal_id")
        .map(raw -> AccessRequests.id(raw, "principal_id"));
  }

  private static UUID id(ManagementRequest r) {
    return AccessRequests.id(r.http().pathParam("id"), "id");
  }

  private Handler handle(Consumer<ManagementRequest> work) {
    return (Context ctx) -> work.accept(new ManagementRequest(ctx, authentication));
  }
}
