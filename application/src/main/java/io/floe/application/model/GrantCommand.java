package io.floe.application.model;

import io.floe.domain.Action;
import io.floe.domain.CatalogName;
import io.floe.domain.TableName;
import java.util.Objects;
import java.util.Optional;
import java.util.UUID;

/** Gives a principal an action on a namespace, or on one table or view of it. */
public record GrantCommand(UUID principalId, CatalogName namespace, Optional<TableName> table,
    Action action) {
  public GrantCommand {
    Objects.requireNonNull(principalId, "principalId");
    Objects.requireNonNull(namespace, "namespace");
    Objects.requireNonNull(table, "table");
    Objects.requireNonNull(action, "action");
  }
}
