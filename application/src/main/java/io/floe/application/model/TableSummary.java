package io.floe.application.model;

import io.floe.domain.Action;
import io.floe.domain.CatalogObject;
import java.util.Objects;
import java.util.Set;

/** A table as listings show it: from its catalog row only, never from its metadata file. */
public record TableSummary(String namespace, CatalogObject table, Set<Action> effectiveActions) {
  public TableSummary {
    Objects.requireNonNull(namespace, "namespace");
    Objects.requireNonNull(table, "table");
    effectiveActions = Set.copyOf(effectiveActions);
  }
}
