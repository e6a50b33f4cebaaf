package io.floe.application.security;

import io.floe.domain.Principal;
import java.util.Objects;

/** The authenticated principal behind a request. */
public record Caller(Principal principal) {
  public Caller {
    Objects.requireNonNull(principal, "principal");
  }
}
