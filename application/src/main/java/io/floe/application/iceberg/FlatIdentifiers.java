package io.floe.application.iceberg;

import io.floe.domain.CatalogName;
import io.floe.domain.InvalidNameException;
import io.floe.domain.TableName;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.catalog.TableIdentifier;
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
