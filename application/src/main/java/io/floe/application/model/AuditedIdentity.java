package io.floe.application.model;

import java.util.Optional;

/**
 * Which namespace, and which table or view, an audited change names: what the audit log resolves
 * to their ids when it records the change, so that the change feed can tell a namespace from
 * another one created later under its name.
 */
public final class AuditedIdentity {
  private AuditedIdentity() {}

  /** The namespace the change was made to or in, by name, for a namespace, table or view. */
  public static Optional<String> namespaceOf(AuditedChange change) {
    return switch (change.target().kind()) {
      case NAMESPACE -> Optional.of(change.target().name());
      case TABLE, VIEW -> Optional.ofNullable(change.details().get("namespace"))
          .map(String::valueOf);
      default -> Optional.empty();
    };
  }

  /** The table's or view's own name, without its namespace. */
  public static Optional<String> objectNameOf(AuditedChange change) {
    String target = change.target().name();
    return switch (change.target().kind()) {
      case TABLE, VIEW -> namespaceOf(change)
          .filter(ns -> target.length() > ns.length() && target.startsWith(ns + "."))
          .map(ns -> target.substring(ns.length() + 1));
      default -> Optional.empty();
    };
  }
}
