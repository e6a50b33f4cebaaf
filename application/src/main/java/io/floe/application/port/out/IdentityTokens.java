package io.floe.application.port.out;

import java.util.Optional;

/**
 * Bearer tokens issued by an identity provider (JWTs), verified against the provider's keys. What
 * a verified token yields is the user's identity there: the value of the configured claim.
 */
public interface IdentityTokens {
  /** No identity provider configured: every such token is refused. */
  IdentityTokens NONE = bearer -> Optional.empty();

  /**
   * The identity named by the token when its signature, issuer, audience and expiry all check
   * out; empty for any token that does not.
   */
  Optional<String> verify(String bearer);
}
