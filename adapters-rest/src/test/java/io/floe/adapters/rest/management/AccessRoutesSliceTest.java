package io.floe.adapters.rest.management;

import static io.floe.adapters.rest.slice.FakeAuthentication.ADMIN;
import static io.floe.adapters.rest.slice.FakeAuthentication.MEMBER;
import static org.assertj.core.api.Assertions.assertThat;

import io.floe.adapters.rest.slice.Calls;
import io.floe.adapters.rest.slice.RouteSlice;
import io.floe.adapters.rest.slice.RouteSlice.Answer;
import io.floe.application.model.AuditAction;
import io.floe.application.model.AuditEntry;
import io.floe.application.model.AuditPage;
import io.floe.application.model.AuditQuery;
import io.floe.application.model.PrincipalDetails;
import io.floe.application.port.in.access.GrantsUseCase;
import io.floe.application.port.in.access.MembersUseCase;
import io.floe.application.port.in.access.TeamsUseCase;
import io.floe.application.port.in.access.TokensUseCase;
import io.floe.application.security.OrgContext;
import io.floe.domain.Principal;
import io.floe.domain.Role;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.UUID;
import org.apache.iceberg.exceptions.ForbiddenException;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The access management routes (members, teams, tokens, grants) and the audit log route: removals
 * on small recording fakes, the audit query as the route parsed it, and everything a route must
 * refuse before its use case on untouched ones.
 */
class AccessRoutesSliceTest {
  private static final Calls CALLS = new Calls();
  private static final List<String> DONE = new ArrayList<>();
  private static final UUID SOMEONE = UUID.fromString("11111111-2222-3333-4444-555555555555");
  private static volatile AuditQuery lastQuery;
  private static RouteSlice slice;

  @BeforeAll
  static void start() {
    MembersUseCase members = new MembersUseCase() {
      private final MembersUseCase untouched = CALLS.untouched(MembersUseCase.class);

      @Override
      public PrincipalDetails createPrincipal(OrgContext context,
          io.floe.application.model.CreatePrincipalCommand command) {
        return untouched.createPrincipal(context, command);
      }

      @Override
      public List<PrincipalDetails> members(OrgContext context, Optional<Principal.Kind> kind) {
        CALLS.record("Members", "members");
        return List.of();
      }

      @Override
      public PrincipalDetails setRole(OrgContext context, UUID principalId, Role role) {
        return untouched.setRole(context, principalId, role);
      }

      @Override
      public void removeMember(OrgContext context, UUID principalId) {
        CALLS.record("Members", "removeMember");
        requireAdmin(context);
        DONE.add("removed " + principalId);
      }
    };
    TeamsUseCase teams = new TeamsUseCase() {
      @Override
      public void addTeamMember(OrgContext context, UUID teamId, UUID userId) {
        CALLS.record("Teams", "addTeamMember");
        requireAdmin(context);
        DONE.add("added " + userId + " to " + teamId);
      }

      @Override
      public void removeTeamMember(OrgContext context, UUID teamId, UUID userId) {
        CALLS.record("Teams", "removeTeamMember");
        requireAdmin(context);
        DONE.add("took " + userId + " from " + teamId);
      }

      @Override
      public List<PrincipalDetails> teamMembers(OrgContext context, UUID teamId) {
        CALLS.record("Teams", "teamMembers");
        return List.of();
      }
    };
    TokensUseCase tokens = CALLS.untouched(TokensUseCase.class);
    GrantsUseCase grants = CALLS.untouched(GrantsUseCase.class);
    slice = RouteSlice.with(CALLS)
        .routes(auth -> new AccessManagementRoutes(auth, members, teams, tokens, grants))
        .routes(auth -> new AuditRoutes(auth, (context, query) -> {
          CALLS.record("AuditLog", "list");
          requireAdmin(context);
          lastQuery = query;
          return new AuditPage(List.of(new AuditEntry(41, Instant.parse("2026-02-03T04:05:06Z"),
              SOMEONE, "ada", "namespace.create", "namespace", "sales", Map.of("k", "v"),
              "req-1")), OptionalLong.of(41));
        }))
        .start();
  }

  private static void requireAdmin(OrgContext context) {
    if (!context.isAdmin()) {
      throw new ForbiddenException("Only an org admin may do this");
    }
  }

  @AfterAll
  static void stop() {
    slice.close();
  }

  @BeforeEach
  void forget() {
    CALLS.clear();
    DONE.clear();
    lastQuery = null;
  }

  @Test
  void withoutAValidTokenEveryRouteIs401BeforeAnyUseCase() {
    String team = "/orgs/acme/teams/" + SOMEONE + "/members";
    List<Answer> answers = List.of(
        slice.get("/orgs/acme/members", null),
        slice.get("/orgs/acme/users", "forged"),
        slice.post("/orgs/acme/users", null, "{\"name\":\"u\"}"),
        slice.post("/orgs/acme/api-clients", null, "{\"name\":\"c\"}"),
        slice.post("/orgs/acme/teams", null, "{\"name\":\"t\"}"),
        slice.patch("/orgs/acme/members/" + SOMEONE, null, "{\"role\":\"admin\"}"),
        slice.delete("/orgs/acme/members/" + SOMEONE, "forged"),
        slice.get(team, null),
        slice.post(team, null, "{\"principal_id\":\"" + SOMEONE + "\"}"),
        slice.delete(team + "/" + SOMEONE, null),
        slice.post("/orgs/acme/tokens", null, "{}"),
        slice.get("/orgs/acme/tokens", null),
        slice.delete("/orgs/acme/tokens/" + SOMEONE, null),
        slice.post("/orgs/acme/grants", null, "{}"),
        slice.get("/orgs/acme/grants", null),
        slice.delete("/orgs/acme/grants/" + SOMEONE, "forged"),
        slice.get("/orgs/acme/audit", null));

    for (Answer answer : answers) {
      assertThat(answer.status()).as(answer.toString()).isEqualTo(401);
      assertThat(answer.detail()).isNotBlank();
    }
    assertThat(CALLS.all()).containsOnly("Authenticate.authenticate");
  }

  @Test
  void removalsReachTheUseCaseWithTheIdsOfThePath() {
    String team = "/orgs/acme/teams/" + SOMEONE + "/members";
    UUID user = UUID.randomUUID();
    Answer removed = slice.delete("/orgs/acme/members/" + user, ADMIN);
    Answer added = slice.post(team, ADMIN, "{\"principal_id\":\"" + user + "\"}");
    Answer taken = slice.delete(team + "/" + user, ADMIN);

    assertThat(List.of(removed.status(), added.status(), taken.status()))
        .containsOnly(204);
    assertThat(DONE).containsExactly("removed " + user, "added " + user + " to " + SOMEONE,
        "took " + user + " from " + SOMEONE);
  }

  @Test
  void theUseCasesRefusalIsA403InTheManagementShape() {
    Answer answer = slice.delete("/orgs/acme/members/" + SOMEONE, MEMBER);

    assertThat(answer.status()).isEqualTo(403);
    assertThat(answer.detail()).contains("admin");
    assertThat(DONE).isEmpty();
  }

  @Test
  void malformedIdsRolesAndBodiesAreRefusedBeforeTheUseCase() {
    String team = "/orgs/acme/teams/" + SOMEONE + "/members";
    List<Answer> answers = List.of(
        slice.delete("/orgs/acme/members/not-a-uuid", ADMIN),
        slice.patch("/orgs/acme/members/" + SOMEONE, ADMIN, "{}"),
        slice.patch("/orgs/acme/members/" + SOMEONE, ADMIN, "{\"role\":\"emperor\"}"),
        slice.patch("/orgs/acme/members/" + SOMEONE, ADMIN, "{\"role\":\"admin\"} {}"),
        slice.post(team, ADMIN, "{}"),
        slice.post(team, ADMIN, "{\"principal_id\":\"12\"}"),
        slice.delete(team + "/nobody", ADMIN),
        slice.get("/orgs/acme/teams/x/members", ADMIN),
        slice.post("/orgs/acme/users", ADMIN, "{"),
        slice.post("/orgs/acme/users", ADMIN, "{\"name\":\"u\",\"role\":\"king\"}"),
        slice.post("/orgs/acme/tokens", ADMIN, "{\"principal_id\":\"x\"}"),
        slice.post("/orgs/acme/tokens", ADMIN, "{\"principal_id\":\"" + SOMEONE + "\","
            + "\"expires_at\":\"tomorrow\"}"),
        slice.get("/orgs/acme/tokens?principal_id=x", ADMIN),
        slice.delete("/orgs/acme/tokens/x", ADMIN),
        slice.post("/orgs/acme/grants", ADMIN, "{\"principal_id\":\"" + SOMEONE + "\","
            + "\"namespace\":\"sales\",\"action\":\"own-everything\"}"),
        slice.post("/orgs/acme/grants", ADMIN, "[]"),
        slice.get("/orgs/acme/grants?namespace=Not%20A%20Name", ADMIN),
        slice.delete("/orgs/acme/grants/x", ADMIN));

    for (Answer answer : answers) {
      assertThat(answer.status()).as(answer.toString()).isIn(400, 422);
      assertThat(answer.detail()).isNotBlank();
    }
    assertThat(CALLS.all()).containsOnly("Authenticate.authenticate", "Authenticate.enterOrg");
  }

  @Test
  void theAuditLogRouteParsesEveryFilterIntoTheQuery() {
    Answer page = slice.get("/orgs/acme/audit?principal=" + SOMEONE + "&action=namespace.create"
        + "&target_kind=namespace&target=sales&since=2026-01-01T00:00:00Z"
        + "&until=2026-02-01T00:00:00%2B01:00&page_token=99&limit=5", ADMIN);

    assertThat(page.status()).isEqualTo(200);
    assertThat(lastQuery.principalId()).contains(SOMEONE);
    assertThat(lastQuery.action()).contains(AuditAction.fromWireName("namespace.create")
        .orElseThrow());
    assertThat(lastQuery.targetName()).contains("sales");
    assertThat(lastQuery.since()).contains(Instant.parse("2026-01-01T00:00:00Z"));
    assertThat(lastQuery.until()).contains(Instant.parse("2026-01-31T23:00:00Z"));
    assertThat(lastQuery.before()).isEqualTo(OptionalLong.of(99));
    assertThat(lastQuery.limit()).isEqualTo(5);
    assertThat(page.json().path("entries").get(0).path("id").asText()).isEqualTo("41");
    assertThat(page.json().path("entries").get(0).path("principal_name").asText())
        .isEqualTo("ada");
    assertThat(page.json().path("next_page_token").asText()).isEqualTo("41");
  }

  @Test
  void aMalformedAuditParameterIsA400NamingItBeforeTheUseCase() {
    Map<String, String> bad = Map.ofEntries(
        Map.entry("principal=ada", "principal"),
        Map.entry("action=everything", "action"),
        Map.entry("target_kind=planet", "target_kind"),
        Map.entry("target=%01x", "target"),
        Map.entry("target=" + "x".repeat(1001), "target"),
        Map.entry("since=yesterday", "since"),
        Map.entry("until=99999-01-01T00:00:00Z", "until"),
        Map.entry("page_token=0", "page_token"),
        Map.entry("page_token=abc", "page_token"),
        Map.entry("limit=100000", "limit"));

    bad.forEach((query, name) -> {
      Answer answer = slice.get("/orgs/acme/audit?" + query, ADMIN);
      assertThat(answer.status()).as(query + " " + answer).isEqualTo(400);
      assertThat(answer.detail()).contains(name);
    });
    assertThat(CALLS.all()).doesNotContain("AuditLog.list");
  }

  /** Each of these was a full-server case once; the route refuses them before the use case. */
  @Test
  void malformedFiltersAreRefusedWith400() {
    for (String query : List.of("principal=ada", "action=table.explode", "target_kind=file",
        "since=yesterday", "until=2026-13-01T00:00:00Z", "since=%2B999999999-12-31T23:59:59Z",
        "until=-000001-01-01T00:00:00Z", "limit=0", "limit=1001", "limit=many",
        "page_token=-5", "page_token=abc", "page_token=99999999999999999999", "target=a%00b",
        "since=2026-01-02T00:00:00Z&until=2026-01-01T00:00:00Z")) {
      Answer reply = slice.get("/orgs/acme/audit?" + query, ADMIN);
      assertThat(reply.status()).as(query).isEqualTo(400);
      assertThat(reply.detail()).as(query).isNotEmpty();
    }
    assertThat(CALLS.all()).doesNotContain("AuditLog.list");
  }

  @Test
  void theAuditLogIsForAdmins() {
    Answer answer = slice.get("/orgs/acme/audit", MEMBER);

    assertThat(answer.status()).isEqualTo(403);
    assertThat(answer.detail()).contains("admin");
  }
}
