package io.floe.domain;

import java.time.Instant;
import java.util.Objects;
import java.util.UUID;

/**
 * A table or a view in a namespace, as the catalog knows it: a name and a pointer to its current
 * metadata file. The pointer only moves by compare-and-swap.
 */
public record CatalogObject(
    UUID id,
    UUID namespaceId,
    TableName name,
    Kind kind,
    String metadataLocation,
    StorageLocation location,
    boolean hasStorageOverride,
    Instant createdAt,
    Instant updatedAt) {

  public enum Kind { TABLE, VIEW }

  public CatalogObject {
    Objects.requireNonNull(id, "id");
    Objects.requireNonNull(namespaceId, "namespaceId");
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(kind, "kind");
    Objects.requireNonNull(metadataLocation, "metadataLocation");
    Objects.requireNonNull(location, "location");
    Objects.requireNonNull(createdAt, "createdAt");
    Objects.requireNonNull(updatedAt, "updatedAt");
  }
}
