package io.floe.adapters.rest.web;

import static io.floe.adapters.rest.slice.FakeAuthentication.MEMBER;
import static io.floe.adapters.rest.slice.FakeAuthentication.ORG;
import static org.assertj.core.api.Assertions.assertThat;

import io.floe.adapters.rest.slice.Calls;
import io.floe.adapters.rest.slice.FakeAuthentication;
import io.floe.adapters.rest.slice.RouteSlice;
import io.floe.adapters.rest.slice.RouteSlice.Answer;
import io.floe.application.model.MemberOrg;
import io.floe.application.port.in.access.GrantsUseCase;
import io.floe.application.port.in.access.MembersUseCase;
import io.floe.application.port.in.access.TeamsUseCase;
import io.floe.application.port.in.access.TokensUseCase;
import io.floe.application.port.in.access.WebSessionsUseCase;
import io.floe.application.port.in.namespace.NamespaceManagementUseCase;
import io.floe.application.port.in.org.BucketManagementUseCase;
import io.floe.application.port.in.org.OrgsUseCase;
import io.floe.application.port.in.repo.BrowseRepoUseCase;
import io.floe.application.port.in.repo.RepoDirectoryUseCase;
import io.floe.application.port.in.table.LoadTableUseCase;
import io.floe.application.port.in.maintenance.GetMaintenancePolicyUseCase;
import io.floe.application.port.in.table.PreviewTableUseCase;
import io.floe.application.port.in.view.ListViewsUseCase;
import io.floe.application.security.Caller;
import io.floe.application.security.OrgContext;
import io.floe.domain.Role;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.iceberg.exceptions.NotAuthorizedException;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The web app's sign-in and sign-out on an in-memory session store: the form's token, the API
 * token's check, the session cookie, the return path, and the error page of an unknown path.
 */
class SignInRoutesSliceTest {
  private static final Calls CALLS = new Calls();
  private static final String SECRET = "session-secret";
  private static final String CSRF = "csrf-of-the-session";
  private static RouteSlice slice;

  /** One session: the member's, opened with the member's API token. */
  private static final class FakeSessions implements WebSessionsUseCase {
    @Override
    public StartedSession signIn(String bearerToken) {
      CALLS.record("WebSessions", "signIn");
      if (!MEMBER.equals(bearerToken)) {
        throw new NotAuthorizedException("Not authorized");
      }
      return new StartedSession(SECRET, Instant.now().plusSeconds(3600));
    }

    @Override
    public StartedSession signInWithIdToken(String idToken) {
      CALLS.record("WebSessions", "signInWithIdToken");
      throw new NotAuthorizedException("Not authorized");
    }

    @Override
    public ActiveSession resume(String secret) {
      CALLS.record("WebSessions", "resume");
      if (!SECRET.equals(secret)) {
        throw new NotAuthorizedException("No such session");
      }
      return new ActiveSession(new Caller(FakeAuthentication.principalOf(MEMBER)), CSRF,
          Instant.now().plusSeconds(3600));
    }

    @Override
    public void signOut(String secret) {
      CALLS.record("WebSessions", "signOut");
    }
  }

  @BeforeAll
  static void start() {
    OrgsUseCase orgs = new OrgsUseCase() {
      @Override
      public List<MemberOrg> orgsOf(Caller caller) {
        CALLS.record("Orgs", "orgsOf");
        return List.of(new MemberOrg(ORG, Instant.EPOCH, Role.MEMBER));
      }

      @Override
      public MemberOrg get(OrgContext context) {
        CALLS.record("Orgs", "get");
        return new MemberOrg(context.org(), Instant.EPOCH, context.membership().role());
      }
    };
    slice = RouteSlice.with(CALLS).web(auth -> new WebUseCases(auth, new FakeSessions(), orgs,
        CALLS.untouched(NamespaceManagementUseCase.class),
        CALLS.untouched(ListViewsUseCase.class), CALLS.untouched(LoadTableUseCase.class),
        CALLS.untouched(PreviewTableUseCase.class), CALLS.untouched(GrantsUseCase.class),
        CALLS.untouched(MembersUseCase.class), CALLS.untouched(TeamsUseCase.class),
        CALLS.untouched(TokensUseCase.class), CALLS.untouched(BucketManagementUseCase.class),
        CALLS.untouched(RepoDirectoryUseCase.class), CALLS.untouched(BrowseRepoUseCase.class),
        CALLS.untouched(GetMaintenancePolicyUseCase.class)))
        .start();
  }

  @AfterAll
  static void stop() {
    slice.close();
  }

  @BeforeEach
  void forget() {
    CALLS.clear();
  }

  private static String formToken() {
    Answer page = slice.get(WebPaths.SIGN_IN, null);
    String cookie = page.headers().entrySet().stream()
        .filter(h -> h.getKey().equalsIgnoreCase("Set-Cookie"))
        .flatMap(h -> h.getValue().stream()).filter(c -> c.startsWith("floe_sign_in="))
        .findFirst().orElseThrow();
    return cookie.substring("floe_sign_in=".length(), cookie.indexOf(';'));
  }

  private static Answer signIn(String cookie, String csrf, String token, String next) {
    String form = "_csrf=" + encode(csrf) + "&token=" + encode(token) + "&next=" + encode(next);
    return slice.send("POST", WebPaths.SIGN_IN, null, form, Map.of(
        "Content-Type", "application/x-www-form-urlencoded",
        "Cookie", "floe_sign_in=" + cookie));
  }

  private static String encode(String value) {
    return URLEncoder.encode(value, StandardCharsets.UTF_8);
  }

  private static String sessionCookie(Answer answer) {
    Matcher matcher = Pattern.compile("floe_session=([^;]*)").matcher(
        String.join("\n", answer.headers().entrySet().stream()
            .filter(h -> h.getKey().equalsIgnoreCase("Set-Cookie"))
            .flatMap(h -> h.getValue().stream()).toList()));
    return matcher.find() ? matcher.group(1) : null;
  }

  @Test
  void theSignInPageSetsTheFormsTokenAndShowsTheForm() {
    Answer page = slice.get(WebPaths.SIGN_IN + "?next=/ui/orgs/acme", null);
    String token = formToken();

    assertThat(page.status()).isEqualTo(200);
    assertThat(page.header("Content-Type").orElseThrow()).startsWith("text/html");
    assertThat(page.body()).contains("name=\"token\"").contains("/ui/orgs/acme");
    assertThat(token).isNotBlank();
    assertThat(CALLS.all()).isEmpty();
  }

  @Test
  void aValidTokenStartsASessionAndReturnsWhereTheBrowserWasGoing() {
    String form = formToken();
    Answer answer = signIn(form, form, MEMBER, "/ui/orgs/acme");

    assertThat(answer.status()).isIn(302, 303);
    assertThat(answer.header("Location")).contains("/ui/orgs/acme");
    assertThat(sessionCookie(answer)).isEqualTo(SECRET);
    assertThat(CALLS.all()).containsExactly("WebSessions.signIn");
  }

  @Test
  void signInNeverRedirectsToAnotherSite() {
    for (String next : List.of("https://evil.example/", "//evil.example/x", "/\\evil.example",
        "javascript:alert(1)")) {
      String form = formToken();
      Answer signedIn = signIn(form, form, MEMBER, next);
      assertThat(signedIn.status()).as(next).isIn(302, 303);
      assertThat(signedIn.header("Location")).as(next).contains("/");
      assertThat(sessionCookie(signedIn)).isEqualTo(SECRET);
    }
  }

  @Test
  void withoutTheFormsTokenNoCredentialIsLookedAt() {
    String form = formToken();
    Answer noCookie = slice.send("POST", WebPaths.SIGN_IN, null,
        "_csrf=x&token=" + MEMBER, Map.of("Content-Type", "application/x-www-form-urlencoded"));
    Answer wrong = signIn(form, "not-the-token", MEMBER, "/");

    for (Answer answer : List.of(noCookie, wrong)) {
      assertThat(answer.status()).isEqualTo(403);
      assertThat(answer.body()).contains("did not come from this site");
      assertThat(sessionCookie(answer)).isNull();
    }
    assertThat(CALLS.all()).isEmpty();
  }

  @Test
  void anInvalidApiTokenIs401OnTheSignInPage() {
    String form = formToken();
    Answer answer = signIn(form, form, "forged", "/");

    assertThat(answer.status()).isEqualTo(401);
    assertThat(answer.body()).contains("That API token is not valid");
    assertThat(sessionCookie(answer)).isNull();
  }

  @Test
  void theHomeLeadsASignedInBrowserToItsOrgAndOthersToSignIn() {
    Answer signedIn = slice.send("GET", WebPaths.ROOT, null, null,
        Map.of("Cookie", "floe_session=" + SECRET));
    Answer stranger = slice.get(WebPaths.ROOT, null);
    Answer stale = slice.send("GET", WebPaths.ROOT, null, null,
        Map.of("Cookie", "floe_session=ended"));

    assertThat(signedIn.status()).isIn(302, 303);
    assertThat(signedIn.header("Location")).contains(WebPaths.org("acme"));
    for (Answer answer : List.of(stranger, stale)) {
      assertThat(answer.status()).as(answer.toString()).isIn(302, 303);
      assertThat(answer.header("Location").orElseThrow()).startsWith(WebPaths.SIGN_IN);
    }
  }

  @Test
  void signingOutNeedsTheSessionsFormToken() {
    Answer forged = slice.send("POST", WebPaths.ROOT + "/sign-out", null, "_csrf=guess",
        Map.of("Content-Type", "application/x-www-form-urlencoded",
            "Cookie", "floe_session=" + SECRET));
    assertThat(forged.status()).isEqualTo(403);
    assertThat(CALLS.all()).doesNotContain("WebSessions.signOut");

    Answer out = slice.send("POST", WebPaths.ROOT + "/sign-out", null, "_csrf=" + CSRF,
        Map.of("Content-Type", "application/x-www-form-urlencoded",
            "Cookie", "floe_session=" + SECRET));
    assertThat(out.status()).isIn(302, 303);
    assertThat(out.header("Location")).contains(WebPaths.SIGN_IN + "?done=signed-out");
    assertThat(CALLS.all()).contains("WebSessions.signOut");
  }

  @Test
  void anUnknownPageIsAn404PageNotJson() {
    Answer answer = slice.send("GET", WebPaths.ROOT + "/no/such/page", null, null,
        Map.of("Cookie", "floe_session=" + SECRET));

    assertThat(answer.status()).isEqualTo(404);
    assertThat(answer.header("Content-Type").orElseThrow()).startsWith("text/html");
  }
}
