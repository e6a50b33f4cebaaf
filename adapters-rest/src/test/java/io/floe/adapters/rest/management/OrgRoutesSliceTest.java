package io.floe.adapters.rest.management;

import static io.floe.adapters.rest.slice.FakeAuthentication.ADMIN;
import static io.floe.adapters.rest.slice.FakeAuthentication.MEMBER;
import static io.floe.adapters.rest.slice.FakeAuthentication.ORG;
import static io.floe.adapters.rest.slice.FakeAuthentication.OUTSIDER;
import static org.assertj.core.api.Assertions.assertThat;

import io.floe.adapters.rest.slice.Calls;
import io.floe.adapters.rest.slice.RouteSlice;
import io.floe.adapters.rest.slice.RouteSlice.Answer;
import io.floe.application.model.BucketSpec;
import io.floe.application.model.MemberOrg;
import io.floe.application.model.RequestInfo;
import io.floe.application.port.in.org.OrgAdministrationUseCase;
import io.floe.application.port.in.org.OrgsUseCase;
import io.floe.application.security.Caller;
import io.floe.application.security.OrgContext;
import io.floe.domain.Org;
import io.floe.domain.OrgName;
import io.floe.domain.Role;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import org.apache.iceberg.exceptions.AlreadyExistsException;
import org.apache.iceberg.exceptions.ForbiddenException;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The caller's orgs, the caller itself, and the operators' org routes, on in-memory use cases. */
class OrgRoutesSliceTest {
  private static final Calls CALLS = new Calls();
  private static final Instant JOINED = Instant.parse("2026-01-02T03:04:05Z");
  private static volatile OrgAdministrationUseCase.NewOrg lastNewOrg;
  private static RouteSlice slice;

  /** The orgs of a caller: acme for its members, none for anyone else. */
  private static final class FakeOrgs implements OrgsUseCase {
    @Override
    public List<MemberOrg> orgsOf(Caller caller) {
      CALLS.record("Orgs", "orgsOf");
      return caller.principal().name().equals("otto") ? List.of()
          : List.of(new MemberOrg(ORG, JOINED, role(caller)));
    }

    @Override
    public MemberOrg get(OrgContext context) {
      CALLS.record("Orgs", "get");
      return new MemberOrg(context.org(), JOINED, context.membership().role());
    }

    private static Role role(Caller caller) {
      return caller.principal().name().equals("ada") ? Role.ADMIN : Role.MEMBER;
    }
  }

  /** Operators are the admin's token; the name {@code taken} exists already. */
  private static final class FakeAdministration implements OrgAdministrationUseCase {
    @Override
    public io.floe.application.port.in.org.ProvisionOrgUseCase.ProvisionedOrg create(
        Caller caller, RequestInfo request, NewOrg org) {
      CALLS.record("OrgAdministration", "create");
      lastNewOrg = org;
      requireOperator(caller);
      if (org.name().equals("taken")) {
        throw new AlreadyExistsException("Org already exists: %s", org.name());
      }
      throw new AssertionError("this slice creates no org");
    }

    @Override
    public Org setIcebergEnabled(Caller caller, RequestInfo request, String org,
        boolean enabled) {
      CALLS.record("OrgAdministration", "setIcebergEnabled");
      requireOperator(caller);
      return new Org(UUID.randomUUID(), new OrgName(org), enabled);
    }

    private static void requireOperator(Caller caller) {
      if (!caller.principal().name().equals("ada")) {
        throw new ForbiddenException("Only the server's operators may administer orgs");
      }
    }
  }

  @BeforeAll
  static void start() {
    slice = RouteSlice.with(CALLS)
        .routes(auth -> new OrgRoutes(auth, new FakeOrgs())
            .andThen(new OrgAdministrationRoutes(auth, new FakeAdministration())))
        .routes(UserRoutes::new)
        .start();
  }

  @AfterAll
  static void stop() {
    slice.close();
  }

  @BeforeEach
  void forget() {
    CALLS.clear();
    lastNewOrg = null;
  }

  @Test
  void withoutAValidTokenEveryRouteIs401InTheManagementShape() {
    List<Answer> answers = List.of(
        slice.get("/user/orgs", null),
        slice.get("/user", "forged"),
        slice.post("/user/diagnostics", null, "{}"),
        slice.get("/orgs/acme", null),
        slice.post("/orgs", null, "{\"name\":\"new\"}"),
        slice.post("/orgs", "forged", "not even json"),
        slice.patch("/orgs/acme", null, "{\"iceberg_enabled\":false}"));

    for (Answer answer : answers) {
      assertThat(answer.status()).as(answer.toString()).isEqualTo(401);
      assertThat(answer.detail()).isNotBlank();
    }
    assertThat(CALLS.all()).containsOnly("Authenticate.authenticate");
  }

  @Test
  void listsTheCallersOrgsInTheArraylakeShape() {
    Answer member = slice.get("/user/orgs", MEMBER);
    Answer outsider = slice.get("/user/orgs", OUTSIDER);

    assertThat(member.status()).isEqualTo(200);
    assertThat(member.json().get(0).path("name").asText()).isEqualTo("acme");
    assertThat(member.json().get(0).path("id").asText()).isEqualTo(ORG.id().toString());
    assertThat(member.json().get(0).path("role").asText()).isEqualTo("member");
    assertThat(member.json().get(0).path("status").asText()).isEqualTo("active");
    assertThat(member.json().get(0).path("created").asText()).isEqualTo("2026-01-02T03:04:05Z");
    assertThat(outsider.json()).isEmpty();
  }

  @Test
  void anOrgTheCallerIsNotInIs404WithoutReachingTheUseCase() {
    Answer outsider = slice.get("/orgs/acme", OUTSIDER);
    Answer unknown = slice.get("/orgs/nowhere", ADMIN);
    Answer admin = slice.get("/orgs/acme", ADMIN);

    assertThat(outsider.status()).isEqualTo(404);
    assertThat(outsider.detail()).contains("acme");
    assertThat(unknown.status()).isEqualTo(404);
    assertThat(admin.status()).isEqualTo(200);
    assertThat(admin.json().path("role").asText()).isEqualTo("admin");
    assertThat(CALLS.all()).containsOnlyOnce("Orgs.get");
  }

  @Test
  void theUserIsTheCallerAndThereIsNoInteractiveLogin() {
    Answer user = slice.get("/user", MEMBER);
    Answer diagnostics = slice.post("/user/diagnostics", MEMBER, "{\"anything\":1}");
    Answer login = slice.get("/auth/config", MEMBER);

    assertThat(user.json().path("name").asText()).isEqualTo("max");
    assertThat(user.json().path("kind").asText()).isEqualTo("user");
    assertThat(user.json().path("email").asText()).endsWith("@" + ArraylakeRepoRoutes.AUTHOR_DOMAIN);
    assertThat(diagnostics.status()).isEqualTo(204);
    assertThat(login.status()).isGreaterThanOrEqualTo(400).isLessThan(500);
    assertThat(login.detail()).contains("API token");
  }

  @Test
  void creatingAnOrgChecksTheBodyAfterTheCallerAndBeforeTheUseCase() {
    List<Answer> answers = List.of(
        slice.post("/orgs", MEMBER, "{"),
        slice.post("/orgs", MEMBER, "{\"name\":\"x\"} {}"),
        slice.post("/orgs", MEMBER, "{\"iceberg_enabled\":true}"),
        slice.post("/orgs", MEMBER, "{\"name\":7}"),
        slice.post("/orgs", MEMBER, "{\"name\":\"x\",\"iceberg_enabled\":\"yes\"}"),
        slice.post("/orgs", MEMBER, "{\"name\":\"x\",\"default_bucket\":[]}"),
        slice.post("/orgs", MEMBER, "{\"name\":\"x\\u0000\"}"),
        slice.patch("/orgs/acme", ADMIN, "{}"),
        slice.patch("/orgs/acme", ADMIN, "{\"iceberg_enabled\":\"off\"}"));

    for (Answer answer : answers) {
      assertThat(answer.status()).as(answer.toString()).isIn(400, 422);
      assertThat(answer.detail()).isNotBlank();
    }
    assertThat(CALLS.all()).containsOnly("Authenticate.authenticate");
  }

  @Test
  void theUseCasesRefusalsAreAnsweredInTheManagementShape() {
    Answer member = slice.post("/orgs", MEMBER, "{\"name\":\"mine\"}");
    Answer taken = slice.post("/orgs", ADMIN, "{\"name\":\"taken\",\"iceberg_enabled\":false}");
    Answer flag = slice.patch("/orgs/other", MEMBER, "{\"iceberg_enabled\":false}");
    Answer switched = slice.patch("/orgs/other", ADMIN, "{\"iceberg_enabled\":false}");

    assertThat(member.status()).isEqualTo(403);
    assertThat(member.detail()).contains("operators");
    assertThat(taken.status()).isEqualTo(409);
    assertThat(lastNewOrg).isEqualTo(new OrgAdministrationUseCase.NewOrg("taken", false,
        Optional.<BucketSpec>empty()));
    assertThat(flag.status()).isEqualTo(403);
    assertThat(switched.status()).isEqualTo(200);
    assertThat(switched.json().path("name").asText()).isEqualTo("other");
    assertThat(switched.json().path("iceberg_enabled").asBoolean(true)).isFalse();
  }

  @Test
  void anOversizedBodyIs413BeforeTheUseCase() {
    Answer answer = slice.post("/orgs", ADMIN, RouteSlice.oversized(9 * 1024 * 1024));

    assertThat(answer.status()).isEqualTo(413);
    assertThat(answer.detail()).isNotBlank();
    assertThat(CALLS.all()).doesNotContain("OrgAdministration.create");
  }
}
