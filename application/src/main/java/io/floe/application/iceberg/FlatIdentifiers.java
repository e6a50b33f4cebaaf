package io.floe.application.iceberg;

import io.floe.domain.CatalogName;
import io.floe.domain.InvalidNameException;
import io.floe.domain.TableName;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.catalog.TableIdentifier;
import java.util.Optional;
import org.apache.iceberg.exceptions.BadRequestException;

/** Turns Iceberg identifiers into Floe names, enforcing that namespaces are flat. */
public final class FlatIdentifiers {
  private FlatIdentifiers() {}

  public static CatalogName namespaceName(Namespace namespace) {
    if (namespace == null || namespace.isEmpty()) {
      throw new BadRequestException("A namespace name is required");
    }
    if (namespace.length() != 1) {
      throw new BadRequestException(
          "Namespaces are flat: '%s' has %d levels, but identifiers carry exactly one namespace "
              + "level (<namespace>.<table>)", namespace, namespace.length());
    }
    try {
      return new CatalogName(namespace.level(0));
    } catch (InvalidNameException e) {
      throw new BadRequestException("Invalid namespace name: %s", e.getMessage());
    }
  }

  /**
   * The namespace's name when a namespace of this catalog could hold it; empty for a name that
   * breaks the naming rule, which cannot exist. Lookups answer "does not exist" for those, as the
   * Iceberg REST spec has existence checks answer; only creating one is a 400. A namespace of
   * several levels (or none) is still the 400 of {@link #namespaceName}: it says why.
   */
  public static Optional<CatalogName> existingNamespaceName(Namespace namespace) {
    if (namespace == null || namespace.length() != 1) {
      return Optional.of(namespaceName(namespace));
    }
    try {
      return Optional.of(new CatalogName(namespace.level(0)));
    } catch (InvalidNameException e) {
      return Optional.empty();
    }
  }

  /** Like {@link #existingNamespaceName}, for a table's or view's name. */
  public static Optional<TableName> existingTableName(String name) {
    try {
      return Optional.of(new TableName(name));
    } catch (InvalidNameException e) {
      return Optional.empty();
    }
  }

  public static TableName tableName(String name) {
    try {
      return new TableName(name);
    } catch (InvalidNameException e) {
      throw new BadRequestException("Invalid table name: %s", e.getMessage());
    }
  }

  public static TableName tableName(TableIdentifier identifier) {
    return tableName(identifier.name());
  }
}
