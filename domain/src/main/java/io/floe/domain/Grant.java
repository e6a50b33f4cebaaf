package io.floe.domain;

import java.util.Objects;
import java.util.Optional;
import java.util.UUID;

/**
 * Access given to a principal on a namespace, or on one table of it when {@code tableId} is set.
 */
public record Grant(UUID principalId, UUID namespaceId, Optional<UUID> tableId, Action action) {
  public Grant {
    Objects.requireNonNull(principalId, "principalId");
    Objects.requireNonNull(namespaceId, "namespaceId");
    Objects.requireNonNull(tableId, "tableId");
    Objects.requireNonNull(action, "action");
  }

  /** Whether this grant lets its principal take {@code wanted} on the given table. */
  public boolean allows(Action wanted, UUID namespace, Optional<UUID> table) {
    if (!namespaceId.equals(namespace) || !action.implied().contains(wanted)) {
      return false;
    }
    return tableId.isEmpty() || tableId.equals(table);
  }
}
