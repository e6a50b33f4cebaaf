package io.floe.application.model;

import java.util.Objects;

/** A new token: the secret is returned this once and stored only as a hash. */
public record IssuedToken(String secret, TokenDetails details) {
  public IssuedToken {
    Objects.requireNonNull(secret, "secret");
    Objects.requireNonNull(details, "details");
  }
}
