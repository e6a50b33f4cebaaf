package io.floe.application.port.in.maintenance;

import java.util.Objects;
import java.util.Optional;

/**
 * What a maintenance policy is set on: the org (no namespace), a namespace, or a table of a
 * namespace.
 */
public record PolicyTarget(Optional<String> namespace, Optional<String> table) {
  public PolicyTarget {
    Objects.requireNonNull(namespace, "namespace");
    Objects.requireNonNull(table, "table");
    if (table.isPresent() && namespace.isEmpty()) {
      throw new IllegalArgumentException("a table policy needs the table's namespace");
    }
  }

  public static PolicyTarget org() {
    return new PolicyTarget(Optional.empty(), Optional.empty());
  }

  public static PolicyTarget namespace(String namespace) {
    return new PolicyTarget(Optional.of(namespace), Optional.empty());
  }

  public static PolicyTarget table(String namespace, String table) {
    return new PolicyTarget(Optional.of(namespace), Optional.of(table));
  }
}
