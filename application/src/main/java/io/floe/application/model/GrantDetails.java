package io.floe.application.model;

import io.floe.domain.Action;
import java.time.Instant;
import java.util.Objects;
import java.util.Optional;
import java.util.UUID;

/** A grant as the management API shows it: names, not only ids. */
public record GrantDetails(UUID id, UUID principalId, String principalName, String namespace,
    Optional<String> table, Action action, Instant createdAt) {
  public GrantDetails {
    Objects.requireNonNull(id, "id");
    Objects.requireNonNull(principalId, "principalId");
    Objects.requireNonNull(principalName, "principalName");
    Objects.requireNonNull(namespace, "namespace");
    Objects.requireNonNull(table, "table");
    Objects.requireNonNull(action, "action");
    Objects.requireNonNull(createdAt, "createdAt");
  }
}
