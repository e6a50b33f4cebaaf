package io.floe.adapters.rest.web;

import io.floe.adapters.rest.web.view.AdminPage;
import io.floe.adapters.rest.web.view.Crumb;
import io.floe.adapters.rest.web.view.Option;
import io.floe.application.model.CreatePrincipalCommand;
import io.floe.application.model.Invalid;
import io.floe.application.model.IssueTokenCommand;
import io.floe.application.model.IssuedToken;
import io.floe.application.model.PrincipalDetails;
import io.floe.application.model.VisibleBucket;
import io.floe.application.port.in.access.MembersUseCase;
import io.floe.application.port.in.access.TeamsUseCase;
import io.floe.application.port.in.access.TokensUseCase;
import io.floe.application.port.in.org.BucketManagementUseCase;
import io.floe.application.security.OrgContext;
import io.floe.domain.BucketConfig;
import io.floe.domain.Principal;
import io.floe.domain.Role;
import io.javalin.config.RoutesConfig;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.stream.Collectors;

/**
 * The org admin pages, through the access and bucket use cases (which refuse non-admins): the
 * pages themselves are only linked for admins.
 */
final class AdminPages {
  static final String PATH = OrgHome.PATH + "/admin";

  private final WebHandlers handlers;
  private final MembersUseCase members;
  private final TeamsUseCase teams;
  private final TokensUseCase tokens;
  private final BucketManagementUseCase buckets;

  AdminPages(WebHandlers handlers, MembersUseCase members, TeamsUseCase teams,
      TokensUseCase tokens, BucketManagementUseCase buckets) {
    this.handlers = handlers;
    this.members = members;
    this.teams = teams;
    this.tokens = tokens;
    this.buckets = buckets;
  }

  void register(RoutesConfig routes) {
    routes.get(PATH + "/members", handlers.page(this::membersPage));
    routes.post(PATH + "/members", handlers.form(this::createMember, this::membersPage));
    routes.post(PATH + "/teams/{team}/members", handlers.form(this::addToTeam,
        this::membersPage));
    routes.get(PATH + "/tokens", handlers.page(r -> tokensPage(r, Optional.empty())));
    routes.post(PATH + "/tokens", handlers.form(this::issue, r -> tokensPage(r,
        Optional.empty())));
    routes.post(PATH + "/tokens/{token}/revoke", handlers.form(this::revoke,
        r -> tokensPage(r, Optional.empty())));
    routes.get(PATH + "/buckets", handlers.page(this::bucketsPage));
  }

  private void membersPage(WebRequest r) {
    OrgContext context = r.scope();
    List<PrincipalDetails> all = members.members(context, Optional.empty());
    List<AdminPage.TeamRow> teamRows = all.stream()
        .filter(member -> member.principal().kind() == Principal.Kind.TEAM)
        .map(team -> new AdminPage.TeamRow(team.principal().id().toString(),
            team.principal().name(), teams.teamMembers(context, team.principal().id()).stream()
                .map(user -> user.principal().name()).toList(),
            base(r) + "/teams/" + team.principal().id() + "/members"))
        .toList();
    render(r, "members", "Members", all.stream().map(member -> new AdminPage.MemberRow(
            member.principal().name(), kind(member.principal().kind()),
            member.role().name().toLowerCase(Locale.ROOT), member.externalId().orElse("")))
        .toList(), teamRows, options(all, Principal.Kind.USER), List.of(), List.of(),
        Optional.empty(), List.of());
  }

  private void createMember(WebRequest r) {
    Principal.Kind kind = switch (r.form("kind").orElse("")) {
      case "user" -> Principal.Kind.USER;
      case "api-client" -> Principal.Kind.API_CLIENT;
      case "team" -> Principal.Kind.TEAM;
      default -> throw Invalid.because("choose a user, an API client or a team");
    };
    Role role = "admin".equals(r.form("role").orElse("")) ? Role.ADMIN : Role.MEMBER;
    members.createPrincipal(r.scope(), new CreatePrincipalCommand(kind,
        r.form("name").orElse(""), role, r.form("external_id")));
    r.redirect(base(r) + "/members?done=created");
  }

  private void addToTeam(WebRequest r) {
    teams.addTeamMember(r.scope(), uuid(r.path("team"), "team"),
        uuid(r.form("user").orElse(""), "user"));
    r.redirect(base(r) + "/members?done=member-added");
  }

  private void tokensPage(WebRequest r, Optional<String> issuedSecret) {
    OrgContext context = r.scope();
    List<PrincipalDetails> all = members.members(context, Optional.empty());
    Map<UUID, String> names = all.stream().collect(Collectors.toMap(
        member -> member.principal().id(), member -> member.principal().name(), (a, b) -> a));
    List<AdminPage.TokenRow> rows = tokens.tokens(context, Optional.empty()).stream()
        .map(token -> new AdminPage.TokenRow(names.getOrDefault(token.principalId(), "(gone)"),
            token.description().orElse(""), Times.shown(token.createdAt()),
            token.expiresAt().map(Times::shown).orElse("never"),
            token.lastUsedAt().map(Times::shown).orElse("never"),
            token.revokedAt().map(Times::shown).orElse(""),
            base(r) + "/tokens/" + token.id() + "/revoke"))
        .toList();
    List<Option> holders = all.stream()
        .filter(member -> member.principal().kind() != Principal.Kind.TEAM)
        .map(member -> new Option(member.principal().id().toString(), member.principal().name()
            + " (" + kind(member.principal().kind()) + ")", false))
        .toList();
    render(r, "tokens", "API tokens", List.of(), List.of(), List.of(), holders, rows,
        issuedSecret, List.of());
  }

  /**
   * Issues a token and shows its secret on the page this once: it is never put in a redirect,
   * a cookie or a log, and cannot be shown again.
   */
  private void issue(WebRequest r) {
    Optional<Instant> expiresAt = r.form("expires_in_days").map(days -> {
      try {
        long count = Long.parseLong(days);
        if (count < 1 || count > 3650) {
          throw Invalid.because("expires in must be 1 to 3650 days");
        }
        return Instant.now().plus(Duration.ofDays(count));
      } catch (NumberFormatException e) {
        throw Invalid.because("expires in must be a number of days");
      }
    });
    IssuedToken issued = tokens.issueToken(r.scope(), new IssueTokenCommand(
        uuid(r.form("principal").orElse(""), "holder"), expiresAt, r.form("description")));
    r.http().status(201);
    tokensPage(r, Optional.of(issued.secret()));
  }

  private void revoke(WebRequest r) {
    tokens.revokeToken(r.scope(), uuid(r.path("token"), "token"));
    r.redirect(base(r) + "/tokens?done=token-revoked");
  }

  private void bucketsPage(WebRequest r) {
    List<AdminPage.BucketRow> rows = buckets.list(r.scope()).stream()
        .map(AdminPages::bucketRow).toList();
    render(r, "buckets", "Buckets", List.of(), List.of(), List.of(), List.of(), List.of(),
        Optional.empty(), rows);
  }

  /** The whole configuration for admins; nickname and platform for other members. */
  private static AdminPage.BucketRow bucketRow(VisibleBucket visible) {
    BucketConfig bucket = visible.bucket();
    if (!visible.configurationShown()) {
      return new AdminPage.BucketRow(bucket.nickname().value(),
          bucket.platform().name().toLowerCase(Locale.ROOT), "", "", "", "", "",
          bucket.isDefault());
    }
    String credentials = bucket.credentials().kind().name().toLowerCase(Locale.ROOT)
        + bucket.credentials().roleArn().map(role -> ", assumes " + role).orElse("");
    return new AdminPage.BucketRow(bucket.nickname().value(),
        bucket.platform().name().toLowerCase(Locale.ROOT), bucket.bucket(),
        bucket.prefix().value(), bucket.endpoint().orElse(""), bucket.region().orElse(""),
        credentials, bucket.isDefault());
  }

  private void render(WebRequest r, String section, String title,
      List<AdminPage.MemberRow> memberRows, List<AdminPage.TeamRow> teamRows, List<Option> users,
      List<Option> holders, List<AdminPage.TokenRow> tokenRows, Optional<String> secret,
      List<AdminPage.BucketRow> bucketRows) {
    r.render("admin.jte", new AdminPage(r.chrome(title, List.of(new Crumb(title, null))),
        section, base(r), memberRows, teamRows, users, holders, tokenRows, secret, bucketRows));
  }

  private static List<Option> options(List<PrincipalDetails> all, Principal.Kind kind) {
    return all.stream().filter(member -> member.principal().kind() == kind)
        .map(member -> new Option(member.principal().id().toString(), member.principal().name(),
            false))
        .toList();
  }

  private static String kind(Principal.Kind kind) {
    return kind.name().toLowerCase(Locale.ROOT).replace('_', ' ');
  }

  private static UUID uuid(String raw, String what) {
    try {
      return UUID.fromString(raw);
    } catch (IllegalArgumentException e) {
      throw Invalid.because("choose a " + what);
    }
  }

  private static String base(WebRequest r) {
    return WebPaths.org(r.org()) + "/admin";
  }
}
