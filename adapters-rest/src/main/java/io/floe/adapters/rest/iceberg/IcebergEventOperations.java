package io.floe.adapters.rest.iceberg;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * The operation types of the Iceberg REST events proposal, and the changes of Floe's feed each
 * stands for. Changes without a standard type carry an {@code x-floe-} type of their own; changes
 * to anything but namespaces, tables and views are not served on the Iceberg route (the
 * management API's feed has them).
 */
final class IcebergEventOperations {
  private static final Map<String, List<String>> ACTIONS = new LinkedHashMap<>();

  static {
    ACTIONS.put("create-table", List.of("table.create"));
    ACTIONS.put("register-table", List.of("table.register"));
    ACTIONS.put("drop-table", List.of("table.drop"));
    ACTIONS.put("update-table", List.of("table.commit"));
    ACTIONS.put("rename-table", List.of("table.rename"));
    ACTIONS.put("create-view", List.of("view.create"));
    ACTIONS.put("drop-view", List.of("view.drop"));
    ACTIONS.put("update-view", List.of("view.replace"));
    ACTIONS.put("rename-view", List.of("view.rename"));
    ACTIONS.put("create-namespace", List.of("namespace.create"));
    ACTIONS.put("update-namespace-properties",
        List.of("namespace.set_properties", "namespace.update"));
    ACTIONS.put("drop-namespace", List.of("namespace.delete"));
    ACTIONS.put("x-floe-register-view", List.of("view.register"));
    ACTIONS.put("x-floe-restore-namespace", List.of("namespace.restore"));
  }

  private IcebergEventOperations() {}

  static boolean isKnown(String operationType) {
    return ACTIONS.containsKey(operationType);
  }

  static String names() {
    return String.join(", ", ACTIONS.keySet());
  }

  /** The feed's actions an operation type stands for. */
  static List<String> actions(String operationType) {
    return ACTIONS.getOrDefault(operationType, List.of());
  }

  /** Every action the Iceberg route serves. */
  static Set<String> allActions() {
    return ACTIONS.values().stream().flatMap(List::stream)
        .collect(java.util.stream.Collectors.toUnmodifiableSet());
  }

  /** The operation type of a feed action, if the Iceberg route serves it. */
  static Optional<String> operationType(String action) {
    return ACTIONS.entrySet().stream().filter(entry -> entry.getValue().contains(action))
        .map(Map.Entry::getKey).findFirst();
  }
}
