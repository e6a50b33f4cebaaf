package io.floe.adapters.rest.identity;

import java.net.URI;
import java.util.Objects;
import java.util.Optional;

/**
 * Which identity provider's tokens Floe accepts: tokens signed by a key of {@code jwksUrl},
 * issued by {@code issuer} for {@code audience}, naming the user in {@code userClaim}. With a
 * {@code clientId}, the web app also signs people in at the provider (authorization code with
 * PKCE; the endpoints come from the issuer's discovery document), and accepts the ID tokens the
 * provider issues to that client; {@code clientSecret} is for providers that want confidential
 * clients to authenticate.
 */
public record OidcSettings(String issuer, URI jwksUrl, String audience, String userClaim,
    Optional<String> clientId, Optional<String> clientSecret) {
  public OidcSettings {
    Objects.requireNonNull(jwksUrl, "jwksUrl");
    Objects.requireNonNull(clientId, "clientId");
    Objects.requireNonNull(clientSecret, "clientSecret");
    if (issuer == null || issuer.isBlank()) {
      throw new IllegalArgumentException("an OIDC issuer is required");
    }
    if (audience == null || audience.isBlank()) {
      // Without an audience any token the provider issued for another application would do.
      throw new IllegalArgumentException("an OIDC audience is required");
    }
    if (userClaim == null || userClaim.isBlank()) {
      throw new IllegalArgumentException("the claim naming the user is required");
    }
    requireSafeTransport(jwksUrl, "JWKS URL");
    clientId = clientId.filter(id -> !id.isBlank());
    clientSecret = clientSecret.filter(secret -> !secret.isBlank());
    if (clientId.isPresent()) {
      // The discovery document names the endpoints the browser and the server are sent to.
      requireSafeTransport(URI.create(issuer), "issuer (its discovery document)");
    }
    if (clientSecret.isPresent() && clientId.isEmpty()) {
      throw new IllegalArgumentException("an OIDC client secret needs a client id");
    }
  }

  /** Settings for bearer tokens only: no browser sign-in at the provider. */
  public OidcSettings(String issuer, URI jwksUrl, String audience, String userClaim) {
    this(issuer, jwksUrl, audience, userClaim, Optional.empty(), Optional.empty());
  }

  /** Whether people can sign in to the web app at the provider. */
  public boolean browserSignIn() {
    return clientId.isPresent();
  }

  /**
   * The same provider, for the ID tokens it issues to the web app: their audience is the web
   * app's client id.
   */
  public OidcSettings forIdTokens() {
    return new OidcSettings(issuer, jwksUrl, clientId.orElseThrow(() ->
        new IllegalStateException("no OIDC client id")), userClaim, clientId, clientSecret);
  }

  private static void requireSafeTransport(URI url, String what) {
    String scheme = url.getScheme();
    if (!"https".equals(scheme) && !("http".equals(scheme) && isLoopback(url.getHost()))) {
      // Keys or endpoints fetched over plain HTTP from elsewhere could be replaced on the way.
      throw new IllegalArgumentException("the " + what + " must use https (http only on "
          + "loopback)");
    }
  }

  private static boolean isLoopback(String host) {
    return "127.0.0.1".equals(host) || "localhost".equals(host) || "[::1]".equals(host);
  }
}
