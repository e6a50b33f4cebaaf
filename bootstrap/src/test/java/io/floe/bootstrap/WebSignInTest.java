package io.floe.bootstrap;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.nimbusds.jose.JWSAlgorithm;
import com.nimbusds.jose.JWSHeader;
import com.nimbusds.jose.crypto.RSASSASigner;
import com.nimbusds.jose.jwk.JWKSet;
import com.nimbusds.jose.jwk.RSAKey;
import com.nimbusds.jose.jwk.gen.RSAKeyGenerator;
import com.nimbusds.jwt.JWTClaimsSet;
import com.nimbusds.jwt.SignedJWT;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import io.floe.adapters.rest.identity.OidcSettings;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.URLDecoder;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.time.Instant;
import java.util.Base64;
import java.util.Date;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Signing in to the web app over plain HTTP, as a browser does it: the API token form with its
 * form token, the session cookie's attributes, sessions that end with their token or on sign-out,
 * and the identity provider's authorization code flow with PKCE against a small provider this
 * test runs on loopback (discovery, authorize, token, JWKS).
 */
class WebSignInTest {
  private static final String CLIENT_ID = "floe-web";
  private static final Pattern FORM_TOKEN =
      Pattern.compile("name=\"_csrf\" value=\"([^\"]+)\"");

  @TempDir static Path directory;
  private static LoopbackProvider provider;
  private static TestFloe floe;
  private static TestFloe.Org org;
  private static OrgAccess access;
  private static final HttpClient HTTP = HttpClient.newBuilder()
      .followRedirects(HttpClient.Redirect.NEVER).build();

  @BeforeAll
  static void start() throws Exception {
    provider = new LoopbackProvider();
    floe = TestFloe.start(directory, settings -> settings.oidc(new OidcSettings(
        provider.issuer(), URI.create(provider.issuer() + "/jwks.json"), "floe-api", "email",
        Optional.of(CLIENT_ID), Optional.empty())));
    org = floe.newOrg();
    access = new OrgAccess(floe, org);
    ManagementApi.Reply alice = access.admin().post("/orgs/" + org.warehouse() + "/users",
        Map.of("name", "Alice", "external_id", "alice@example.test"));
    assertThat(alice.status()).as(alice.body().toString()).isEqualTo(201);
  }

  @AfterAll
  static void stop() {
    floe.close();
    provider.stop();
  }

  @Test
  void anApiTokenSignsInAndTheCookieHoldsOnlyASessionSecret() {
    TestFloe.Org user = access.newUser("Token User");
    Browser browser = new Browser();
    HttpResponse<String> signedIn = browser.signInWithToken(user.token(), "/ui/orgs/"
        + org.warehouse());
    assertThat(signedIn.statusCode()).isEqualTo(303);
    assertThat(signedIn.headers().firstValue("Location")).contains("/ui/orgs/" + org.warehouse());
    String cookie = setCookie(signedIn, "floe_session").orElseThrow();
    assertThat(cookie).contains("HttpOnly").contains("SameSite=Strict").contains("Path=/")
        .doesNotContain("Secure");  // plain HTTP here; Secure over TLS
    assertThat(cookie).doesNotContain(user.token());

    HttpResponse<String> home = browser.get("/ui/orgs/" + org.warehouse());
    assertThat(home.statusCode()).isEqualTo(200);
    assertThat(home.body()).contains("Token User");
    assertThat(home.headers().firstValue("Content-Security-Policy").orElse(""))
        .contains("script-src 'self'");
  }

  @Test
  void revokingTheTokenEndsItsSessions() {
    String holder = access.create("users", "Revoked User");
    TestFloe.Org user = access.tokenFor(holder);
    Browser browser = new Browser();
    browser.signInWithToken(user.token(), "/");
    assertThat(browser.get("/ui/orgs/" + org.warehouse()).statusCode()).isEqualTo(200);
    String tokenId = access.admin().get("/orgs/" + org.warehouse() + "/tokens?principal_id="
        + holder).body().get(0).path("id").asText();
    assertThat(access.admin().delete("/orgs/" + org.warehouse() + "/tokens/" + tokenId)
        .status()).isEqualTo(200);
    HttpResponse<String> after = browser.get("/ui/orgs/" + org.warehouse());
    assertThat(after.statusCode()).isEqualTo(303);
    assertThat(after.headers().firstValue("Location").orElse("")).startsWith("/ui/sign-in");
  }

  @Test
  void theSignInFormNeedsItsOwnFormTokenAndABadTokenIsReadable() {
    TestFloe.Org user = access.newUser("Forged User");
    // A page of another site can post the form, but not with the cookie's token.
    HttpResponse<String> forged = post(Map.of(), "/ui/sign-in",
        Map.of("_csrf", "guess", "token", user.token(), "next", "/"));
    assertThat(forged.statusCode()).isEqualTo(403);
    assertThat(setCookie(forged, "floe_session")).isEmpty();

    Browser browser = new Browser();
    HttpResponse<String> wrong = browser.signInWithToken("ema_" + "0".repeat(64), "/");
    assertThat(wrong.statusCode()).isEqualTo(401);
    assertThat(wrong.body()).contains("That API token is not valid");
    assertThat(setCookie(wrong, "floe_session")).isEmpty();
  }

  @Test
  void theIdentityProviderSignsPeopleInWithPkce() throws Exception {
    Browser browser = new Browser();
    HttpResponse<String> toProvider = browser.get("/ui/sign-in/provider?next="
        + URLEncoder.encode("/ui/orgs/" + org.warehouse(), StandardCharsets.UTF_8));
    assertThat(toProvider.statusCode()).isEqualTo(302);
    assertThat(setCookie(toProvider, "floe_oidc").orElseThrow()).contains("SameSite=Lax")
        .contains("HttpOnly");
    URI authorize = URI.create(toProvider.headers().firstValue("Location").orElseThrow());
    Map<String, String> asked = query(authorize);
    assertThat(authorize.toString()).startsWith(provider.issuer() + "/authorize");
    assertThat(asked).containsEntry("client_id", CLIENT_ID)
        .containsEntry("code_challenge_method", "S256").containsEntry("response_type", "code")
        .containsKey("code_challenge").containsKey("nonce").containsKey("state");
    assertThat(asked.get("scope")).contains("openid");

    // The provider signs Alice in and sends the browser back with a code.
    provider.nextUser = "alice@example.test";
    HttpResponse<String> back = HTTP.send(HttpRequest.newBuilder(authorize).build(),
        HttpResponse.BodyHandlers.ofString());
    URI callback = URI.create(back.headers().firstValue("Location").orElseThrow());
    assertThat(callback.getPath()).isEqualTo("/ui/sign-in/callback");

    // The same answer in another browser (without this one's state cookie) signs no one in.
    HttpResponse<String> elsewhere = new Browser().get(callback.getRawPath() + "?"
        + callback.getRawQuery());
    assertThat(elsewhere.statusCode()).isEqualTo(401);
    assertThat(elsewhere.body()).contains("not started here");
    assertThat(setCookie(elsewhere, "floe_session").filter(c -> !c.contains("Max-Age=0")))
        .isEmpty();

    HttpResponse<String> done = browser.get(callback.getRawPath() + "?" + callback.getRawQuery());
    assertThat(done.statusCode()).as(done.body()).isEqualTo(200);
    assertThat(done.body()).contains("url=/ui/orgs/" + org.warehouse());
    assertThat(setCookie(done, "floe_session").orElseThrow()).contains("SameSite=Strict");
    assertThat(provider.verifiedPkce).isTrue();
    HttpResponse<String> home = browser.get("/ui/orgs/" + org.warehouse());
    assertThat(home.statusCode()).isEqualTo(200);
    assertThat(home.body()).contains("Alice");

    // An answer is good once: its state cookie is gone (and the provider hands out codes once).
    HttpResponse<String> replay = browser.get(callback.getRawPath() + "?"
        + callback.getRawQuery());
    assertThat(replay.statusCode()).isEqualTo(401);
  }

  @Test
  void aPersonWhoIsAUserOfTwoOrgsSignsInToBothAsEachOrgsUser() throws Exception {
    TestFloe.Org second = floe.newOrg();
    ManagementApi secondAdmin = new ManagementApi(floe.server().port(), second.token());
    ManagementApi.Reply bob = access.admin().post("/orgs/" + org.warehouse() + "/users",
        Map.of("name", "Bob here", "external_id", "bob@example.test"));
    ManagementApi.Reply bobThere = secondAdmin.post("/orgs/" + second.warehouse() + "/users",
        Map.of("name", "Bob there", "external_id", "bob@example.test"));
    assertThat(List.of(bob.status(), bobThere.status())).containsOnly(201);

    Browser browser = new Browser();
    HttpResponse<String> toProvider = browser.get("/ui/sign-in/provider");
    provider.nextUser = "bob@example.test";
    HttpResponse<String> back = HTTP.send(HttpRequest.newBuilder(URI.create(
        toProvider.headers().firstValue("Location").orElseThrow())).build(),
        HttpResponse.BodyHandlers.ofString());
    URI callback = URI.create(back.headers().firstValue("Location").orElseThrow());
    assertThat(browser.get(callback.getRawPath() + "?" + callback.getRawQuery()).statusCode())
        .isEqualTo(200);

    HttpResponse<String> here = browser.get("/ui/orgs/" + org.warehouse());
    HttpResponse<String> there = browser.get("/ui/orgs/" + second.warehouse());
    assertThat(here.statusCode()).isEqualTo(200);
    assertThat(there.statusCode()).isEqualTo(200);
    assertThat(here.body()).contains("Bob here").doesNotContain("Bob there");
    assertThat(there.body()).contains("Bob there").doesNotContain("Bob here");
  }

  @Test
  void aMemberSeesBucketsOnTheAdminPageByNicknameAndPlatformOnly() {
    ManagementApi.Reply lake = access.admin().post("/orgs/" + org.warehouse() + "/buckets",
        Map.of("nickname", "lake", "platform", "s3", "name", "org-lake", "region", "eu-west-1",
            "auth", Map.of("method", "static", "access_key_id", "AKID",
                "secret_access_key", "SECRET", "role_arn",
                "arn:aws:iam::123456789012:role/lake-writer")));
    assertThat(lake.status()).as(lake.body().toString()).isIn(201, 409);
    Browser member = new Browser();
    member.signInWithToken(access.newUser("Page Member").token(), "/");
    HttpResponse<String> page = member.get("/ui/orgs/" + org.warehouse() + "/admin/buckets");
    assertThat(page.statusCode()).isEqualTo(200);
    assertThat(page.body()).contains("lake").doesNotContain("lake-writer")
        .doesNotContain("org-lake").doesNotContain("eu-west-1")
        .doesNotContain(directory.toString());

    Browser admin = new Browser();
    admin.signInWithToken(org.token(), "/");
    assertThat(admin.get("/ui/orgs/" + org.warehouse() + "/admin/buckets").body())
        .contains("lake-writer").contains("org-lake");
  }

  @Test
  void anIdentityWithoutAFloeUserSignsNoOneIn() throws Exception {
    Browser browser = new Browser();
    HttpResponse<String> toProvider = browser.get("/ui/sign-in/provider");
    provider.nextUser = "stranger@example.test";
    HttpResponse<String> back = HTTP.send(HttpRequest.newBuilder(URI.create(
        toProvider.headers().firstValue("Location").orElseThrow())).build(),
        HttpResponse.BodyHandlers.ofString());
    URI callback = URI.create(back.headers().firstValue("Location").orElseThrow());
    HttpResponse<String> done = browser.get(callback.getRawPath() + "?" + callback.getRawQuery());
    assertThat(done.statusCode()).isEqualTo(401);
    assertThat(done.body()).contains("names no user of this server");
    assertThat(setCookie(done, "floe_session")).isEmpty();
  }

  @Test
  void signingOutEndsTheSessionOnTheServer() {
    TestFloe.Org user = access.newUser("Leaving User");
    Browser browser = new Browser();
    browser.signInWithToken(user.token(), "/");
    HttpResponse<String> home = browser.get("/ui/orgs/" + org.warehouse());
    String formToken = formToken(home.body());
    String session = browser.cookies.get("floe_session");
    // Without the session's form token, signing out (like any form) is refused.
    assertThat(browser.post("/ui/sign-out", Map.of("_csrf", "nope")).statusCode())
        .isEqualTo(403);
    HttpResponse<String> out = browser.post("/ui/sign-out", Map.of("_csrf", formToken));
    assertThat(out.statusCode()).isEqualTo(303);
    HttpResponse<String> stale = get(Map.of("floe_session", session),
        "/ui/orgs/" + org.warehouse());
    assertThat(stale.statusCode()).isEqualTo(303);
  }

  /** A cookie jar and the requests a browser makes. */
  private static final class Browser {
    final Map<String, String> cookies = new HashMap<>();

    HttpResponse<String> signInWithToken(String token, String next) {
      HttpResponse<String> form = get("/ui/sign-in");
      return post("/ui/sign-in", Map.of("_csrf", formToken(form.body()), "token", token,
          "next", next));
    }

    HttpResponse<String> get(String path) {
      return keep(WebSignInTest.get(cookies, path));
    }

    HttpResponse<String> post(String path, Map<String, String> form) {
      return keep(WebSignInTest.post(cookies, path, form));
    }

    private HttpResponse<String> keep(HttpResponse<String> response) {
      response.headers().allValues("Set-Cookie").forEach(header -> {
        String pair = header.split(";", 2)[0];
        String name = pair.substring(0, pair.indexOf('='));
        String value = pair.substring(pair.indexOf('=') + 1);
        if (header.contains("Max-Age=0")) {
          cookies.remove(name);
        } else {
          cookies.put(name, value);
        }
      });
      return response;
    }
  }

  private static HttpResponse<String> get(Map<String, String> cookies, String path) {
    return send(request(cookies, path).GET().build());
  }

  private static HttpResponse<String> post(Map<String, String> cookies, String path,
      Map<String, String> form) {
    StringBuilder body = new StringBuilder();
    form.forEach((key, value) -> body.append(body.length() == 0 ? "" : "&")
        .append(URLEncoder.encode(key, StandardCharsets.UTF_8)).append('=')
        .append(URLEncoder.encode(value, StandardCharsets.UTF_8)));
    return send(request(cookies, path)
        .header("Content-Type", "application/x-www-form-urlencoded")
        .POST(HttpRequest.BodyPublishers.ofString(body.toString())).build());
  }

  private static HttpRequest.Builder request(Map<String, String> cookies, String path) {
    HttpRequest.Builder builder = HttpRequest.newBuilder(URI.create("http://127.0.0.1:"
        + floe.server().port() + path));
    if (!cookies.isEmpty()) {
      builder.header("Cookie", String.join("; ", cookies.entrySet().stream()
          .map(cookie -> cookie.getKey() + "=" + cookie.getValue()).toList()));
    }
    return builder;
  }

  private static HttpResponse<String> send(HttpRequest request) {
    try {
      return HTTP.send(request, HttpResponse.BodyHandlers.ofString());
    } catch (IOException | InterruptedException e) {
      throw new AssertionError(e);
    }
  }

  private static String formToken(String html) {
    Matcher matcher = FORM_TOKEN.matcher(html);
    assertThat(matcher.find()).as("a form token in the page").isTrue();
    return matcher.group(1);
  }

  private static Optional<String> setCookie(HttpResponse<?> response, String name) {
    return response.headers().allValues("Set-Cookie").stream()
        .filter(header -> header.startsWith(name + "=")).findFirst();
  }

  private static Map<String, String> query(URI uri) {
    Map<String, String> out = new HashMap<>();
    for (String pair : uri.getRawQuery().split("&")) {
      String[] parts = pair.split("=", 2);
      out.put(URLDecoder.decode(parts[0], StandardCharsets.UTF_8),
          URLDecoder.decode(parts.length > 1 ? parts[1] : "", StandardCharsets.UTF_8));
    }
    return out;
  }

  /**
   * An OpenID provider small enough to read: it signs in whoever {@link #nextUser} names at once,
   * hands out each code once, checks the PKCE verifier against the challenge, and issues ID
   * tokens for {@value #CLIENT_ID} with the nonce it was given.
   */
  private static final class LoopbackProvider {
    private final HttpServer server;
    private final RSAKey key;
    private final Map<String, Map<String, String>> codes = new ConcurrentHashMap<>();
    volatile String nextUser = "alice@example.test";
    volatile boolean verifiedPkce;

    LoopbackProvider() throws Exception {
      key = new RSAKeyGenerator(2048).keyID("web-key").generate();
      server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
      server.createContext("/.well-known/openid-configuration", exchange -> json(exchange, 200,
          Map.of("issuer", issuer(), "authorization_endpoint", issuer() + "/authorize",
              "token_endpoint", issuer() + "/token", "jwks_uri", issuer() + "/jwks.json",
              "response_types_supported", List.of("code"),
              "subject_types_supported", List.of("public"),
              "id_token_signing_alg_values_supported", List.of("RS256"))));
      server.createContext("/jwks.json", exchange -> raw(exchange, 200,
          new JWKSet(key.toPublicJWK()).toString()));
      server.createContext("/authorize", this::authorize);
      server.createContext("/token", this::token);
      server.start();
    }

    String issuer() {
      return "http://127.0.0.1:" + server.getAddress().getPort();
    }

    void stop() {
      server.stop(0);
    }

    private void authorize(HttpExchange exchange) throws IOException {
      Map<String, String> asked = query(exchange.getRequestURI());
      String code = UUID.randomUUID().toString();
      Map<String, String> grant = new HashMap<>(asked);
      grant.put("user", nextUser);
      codes.put(code, grant);
      exchange.getResponseHeaders().add("Location", asked.get("redirect_uri") + "?code=" + code
          + "&state=" + URLEncoder.encode(asked.get("state"), StandardCharsets.UTF_8));
      exchange.sendResponseHeaders(302, -1);
      exchange.close();
    }

    private void token(HttpExchange exchange) throws IOException {
      Map<String, String> form = query(URI.create("?" + new String(
          exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8)));
      Map<String, String> grant = codes.remove(form.getOrDefault("code", ""));
      if (grant == null || !CLIENT_ID.equals(form.get("client_id"))
          || !grant.get("redirect_uri").equals(form.get("redirect_uri"))) {
        json(exchange, 400, Map.of("error", "invalid_grant"));
        return;
      }
      try {
        String challenge = Base64.getUrlEncoder().withoutPadding().encodeToString(
            MessageDigest.getInstance("SHA-256").digest(
                form.getOrDefault("code_verifier", "").getBytes(StandardCharsets.US_ASCII)));
        if (!challenge.equals(grant.get("code_challenge"))) {
          json(exchange, 400, Map.of("error", "invalid_grant", "error_description",
              "PKCE verification failed"));
          return;
        }
        verifiedPkce = true;
        SignedJWT idToken = new SignedJWT(new JWSHeader.Builder(JWSAlgorithm.RS256)
            .keyID(key.getKeyID()).build(), new JWTClaimsSet.Builder()
            .issuer(issuer()).audience(CLIENT_ID).subject(UUID.randomUUID().toString())
            .claim("email", grant.get("user")).claim("nonce", grant.get("nonce"))
            .issueTime(new Date()).expirationTime(Date.from(Instant.now().plusSeconds(300)))
            .build());
        idToken.sign(new RSASSASigner(key));
        json(exchange, 200, Map.of("access_token", "opaque-" + UUID.randomUUID(),
            "token_type", "Bearer", "expires_in", 300, "id_token", idToken.serialize()));
      } catch (Exception e) {
        json(exchange, 500, Map.of("error", "server_error"));
      }
    }

    private static void json(HttpExchange exchange, int status, Object body) throws IOException {
      exchange.getResponseHeaders().add("Content-Type", "application/json");
      raw(exchange, status, new ObjectMapper().writeValueAsString(body));
    }

    private static void raw(HttpExchange exchange, int status, String body) throws IOException {
      byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
      exchange.sendResponseHeaders(status, bytes.length);
      exchange.getResponseBody().write(bytes);
      exchange.close();
    }
  }
}
