package io.floe.domain;

import java.util.Objects;
import java.util.UUID;

/** Someone or something that acts: a user, a team of users, or an API client (service account). */
public record Principal(UUID id, Kind kind, String name) {
  public enum Kind { USER, TEAM, API_CLIENT }

  public Principal {
    Objects.requireNonNull(id, "id");
    Objects.requireNonNull(kind, "kind");
    if (name == null || name.isBlank()) {
      throw new DomainException("a principal needs a name");
    }
  }
}
