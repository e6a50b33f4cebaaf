package io.floe.bootstrap;

import static org.assertj.core.api.Assertions.assertThat;

import com.nimbusds.jose.JOSEObjectType;
import com.nimbusds.jose.JWSAlgorithm;
import com.nimbusds.jose.JWSHeader;
import com.nimbusds.jose.crypto.RSASSASigner;
import com.nimbusds.jose.jwk.JWKSet;
import com.nimbusds.jose.jwk.RSAKey;
import com.nimbusds.jose.jwk.gen.RSAKeyGenerator;
import com.nimbusds.jwt.JWTClaimsSet;
import com.nimbusds.jwt.SignedJWT;
import com.sun.net.httpserver.HttpServer;
import io.floe.adapters.rest.identity.OidcSettings;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Instant;
import java.util.Base64;
import java.util.Date;
import java.util.Map;
import java.util.function.Consumer;
import org.apache.iceberg.catalog.Namespace;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Users of an identity provider: bearer JWTs verified against the provider's JWKS, served by this
 * test on loopback, and mapped to Floe users by their email claim.
 */
class OidcAuthenticationTest {
  private static final String ISSUER = "https://login.example.test/";
  private static final String AUDIENCE = "floe";

  @TempDir static Path directory;
  private static HttpServer jwks;
  private static RSAKey signingKey;
  private static TestFloe floe;
  private static TestFloe.Org org;

  @BeforeAll
  static void start() throws Exception {
    signingKey = new RSAKeyGenerator(2048).keyID("key-1").generate();
    jwks = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
    byte[] keys = new JWKSet(signingKey.toPublicJWK()).toString().getBytes(StandardCharsets.UTF_8);
    jwks.createContext("/jwks.json", exchange -> {
      exchange.getResponseHeaders().add("Content-Type", "application/json");
      exchange.sendResponseHeaders(200, keys.length);
      exchange.getResponseBody().write(keys);
      exchange.close();
    });
    jwks.start();
    URI jwksUrl = URI.create("http://127.0.0.1:" + jwks.getAddress().getPort() + "/jwks.json");
    floe = TestFloe.start(directory, settings -> settings.oidc(
        new OidcSettings(ISSUER, jwksUrl, AUDIENCE, "email")));
    org = floe.newOrg();
    floe.catalog(org, Map.of()).createNamespace(Namespace.of("reports"));
    OrgAccess access = new OrgAccess(floe, org);
    ManagementApi.Reply alice = access.admin().post("/orgs/" + org.warehouse() + "/users",
        Map.of("name", "Alice", "external_id", "alice@example.test"));
    assertThat(alice.status()).as(alice.body().toString()).isEqualTo(201);
    access.grant(alice.body().path("id").asText(), "reports", null, "read");
  }

  @AfterAll
  static void stop() {
    floe.close();
    jwks.stop(0);
  }

  @Test
  void aValidTokenOfAKnownUserActsAsThatUser() throws Exception {
    IcebergHttp.Reply reply = as(sign(signingKey, claims -> { })).get("/namespaces");
    assertThat(reply.status()).as(reply.body().toString()).isEqualTo(200);
    assertThat(reply.body().path("namespaces").toString()).contains("reports");
    // What the user was not granted still does not exist for it.
    assertThat(as(sign(signingKey, claims -> { })).post("/namespaces",
        "{\"namespace\":[\"mine\"]}").status()).isEqualTo(403);
  }

  @Test
  void aPersonWhoIsAUserOfTwoOrgsActsInEachAsThatOrgsUser() throws Exception {
    TestFloe.Org second = floe.newOrg();
    floe.catalog(second, Map.of()).createNamespace(Namespace.of("plans"));
    floe.catalog(second, Map.of()).createNamespace(Namespace.of("payroll"));
    OrgAccess secondAccess = new OrgAccess(floe, second);
    ManagementApi.Reply aliceThere = secondAccess.admin().post("/orgs/" + second.warehouse()
        + "/users", Map.of("name", "Alice there", "external_id", "alice@example.test"));
    assertThat(aliceThere.status()).as(aliceThere.body().toString()).isEqualTo(201);
    secondAccess.grant(aliceThere.body().path("id").asText(), "plans", null, "read");

    String token = sign(signingKey, claims -> { });
    IcebergHttp.Reply here = as(token).get("/namespaces");
    IcebergHttp.Reply there = new IcebergHttp(floe, new TestFloe.Org(second.warehouse(), token))
        .get("/namespaces");
    assertThat(here.status()).isEqualTo(200);
    assertThat(there.status()).as(there.body().toString()).isEqualTo(200);
    // Each org's grants, to each org's user: nothing of one reaches into the other.
    assertThat(here.body().path("namespaces").toString()).contains("reports")
        .doesNotContain("plans");
    assertThat(there.body().path("namespaces").toString()).contains("plans")
        .doesNotContain("reports").doesNotContain("payroll");
  }

  @Test
  void tokensThatFailAnyCheckAreRefusedWith401() throws Exception {
    RSAKey otherKey = new RSAKeyGenerator(2048).keyID("key-1").generate();
    String valid = sign(signingKey, claims -> { });
    String[] parts = valid.split("\\.");
    String forgedPayload = Base64.getUrlEncoder().withoutPadding().encodeToString(
        ("{\"iss\":\"" + ISSUER + "\",\"aud\":\"" + AUDIENCE + "\",\"email\":\"admin@example.test\","
            + "\"exp\":" + (Instant.now().getEpochSecond() + 600) + "}")
            .getBytes(StandardCharsets.UTF_8));
    String unsigned = Base64.getUrlEncoder().withoutPadding().encodeToString(
        "{\"alg\":\"none\"}".getBytes(StandardCharsets.UTF_8)) + "." + parts[1] + ".";

    assertRefused(sign(signingKey, claims -> claims.issuer("https://evil.example.test/")));
    assertRefused(sign(signingKey, claims -> claims.audience("another-app")));
    assertRefused(sign(signingKey, claims -> claims.expirationTime(
        Date.from(Instant.now().minusSeconds(3600)))));
    assertRefused(sign(signingKey, claims -> claims.claim("email", "nobody@example.test")));
    assertRefused(sign(otherKey, claims -> { }));
    assertRefused(parts[0] + "." + forgedPayload + "." + parts[2]);
    assertRefused(unsigned);
    assertRefused("eyJhbGciOiJSUzI1NiJ9.not-json.sig");
  }

  private static void assertRefused(String token) {
    IcebergHttp.Reply reply = as(token).get("/namespaces");
    assertThat(reply.status()).as(token).isEqualTo(401);
    assertThat(reply.errorType()).isEqualTo("NotAuthorizedException");
  }

  private static IcebergHttp as(String token) {
    return new IcebergHttp(floe, new TestFloe.Org(org.warehouse(), token));
  }

  private static String sign(RSAKey key, Consumer<JWTClaimsSet.Builder> adjust)
      throws Exception {
    JWTClaimsSet.Builder claims = new JWTClaimsSet.Builder()
        .issuer(ISSUER).audience(AUDIENCE).subject("00u1")
        .claim("email", "alice@example.test")
        .issueTime(new Date())
        .expirationTime(Date.from(Instant.now().plusSeconds(600)));
    adjust.accept(claims);
    SignedJWT jwt = new SignedJWT(new JWSHeader.Builder(JWSAlgorithm.RS256)
        .keyID(key.getKeyID()).type(JOSEObjectType.JWT).build(), claims.build());
    jwt.sign(new RSASSASigner(key));
    return jwt.serialize();
  }
}
