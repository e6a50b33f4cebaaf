package io.floe.bootstrap;

import io.floe.adapters.rest.management.AccessManagementRoutes;
import io.floe.adapters.rest.management.UserRoutes;
import io.floe.application.security.AccessPolicy;
import io.floe.application.security.Operators;
import io.floe.application.service.access.AuthenticationService;
import io.floe.application.service.access.GrantService;
import io.floe.application.service.access.MemberService;
import io.floe.application.service.access.OrgMembers;
import io.floe.application.service.access.TeamService;
import io.floe.application.service.access.TokenService;
import io.floe.application.service.change.ChangePublisher;
import io.javalin.config.RoutesConfig;
import java.time.Clock;
import java.util.function.Consumer;

/**
 * The wiring of identity and access: who a caller is (API tokens, the identity provider's
 * tokens), what grants allow them, who operates the server, and the management of an org's
 * members, teams, tokens and grants.
 */
final class AccessModule {
  final AccessPolicy policy;
  final Operators operators;
  final AuthenticationService authentication;
  final MemberService members;
  final TeamService teams;
  final TokenService tokens;
  final GrantService grants;

  AccessModule(Adapters adapters, ServerSettings settings, Clock clock,
      ChangePublisher publisher) {
    this.policy = new AccessPolicy(adapters.grants());
    this.operators = new Operators(adapters.orgs(), adapters.principals(), policy, settings.org());
    this.authentication = new AuthenticationService(adapters.principals(), adapters.orgs(), clock,
        adapters.apiIdentityTokens(), adapters.identities(),
        java.util.Optional.of(adapters.maintenanceJobTokens()));
    OrgMembers orgMembers = new OrgMembers(adapters.identities());
    this.members = new MemberService(adapters.identities(), orgMembers, policy, publisher,
        adapters.ids());
    this.teams = new TeamService(adapters.identities(), orgMembers, policy, publisher);
    this.tokens = new TokenService(adapters.identities(), orgMembers, policy, adapters.ids(),
        clock, publisher);
    this.grants = new GrantService(adapters.grants(), adapters.namespaces(), adapters.objects(),
        orgMembers, policy, adapters.ids(), clock, publisher);
  }

  /** Members, teams, tokens and grants of an org. */
  Consumer<RoutesConfig> routes() {
    return new AccessManagementRoutes(authentication, members, teams, tokens, grants);
  }

  /** The caller's own account. */
  Consumer<RoutesConfig> userRoutes() {
    return new UserRoutes(authentication);
  }
}
