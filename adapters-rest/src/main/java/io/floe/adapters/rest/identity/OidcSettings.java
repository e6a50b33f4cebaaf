package io.floe.adapters.rest.identity;

import java.net.URI;
import java.util.Objects;

/**
 * Which identity provider's tokens Floe accepts: tokens signed by a key of {@code jwksUrl},
 * issued by {@code issuer} for {@code audience}, naming the user in {@code userClaim}.
 */
public record OidcSettings(String issuer, URI jwksUrl, String audience, String userClaim) {
  public OidcSettings {
    Objects.requireNonNull(jwksUrl, "jwksUrl");
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
    String scheme = jwksUrl.getScheme();
    if (!"https".equals(scheme) && !("http".equals(scheme) && isLoopback(jwksUrl.getHost()))) {
      // Keys fetched over plain HTTP from elsewhere could be replaced on the way.
      throw new IllegalArgumentException("the JWKS URL must use https (http only on loopback)");
    }
  }

  private static boolean isLoopback(String host) {
    return "127.0.0.1".equals(host) || "localhost".equals(host) || "[::1]".equals(host);
  }
}
