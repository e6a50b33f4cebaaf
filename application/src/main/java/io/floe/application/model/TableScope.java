package io.floe.application.model;

import java.util.Objects;
import java.util.Optional;
import java.util.UUID;

/**
 * Which tables and views of a namespace a listing may show a caller: all of them when it may read
 * the namespace, else only those granted individually to {@code grantee} or its teams.
 */
public record TableScope(Optional<UUID> grantee) {
  public TableScope {
    Objects.requireNonNull(grantee, "grantee");
  }

  public static TableScope all() {
    return new TableScope(Optional.empty());
  }

  public static TableScope grantedTo(UUID principalId) {
    return new TableScope(Optional.of(principalId));
  }
}
