package io.floe.domain;

import java.time.Instant;
import java.util.Objects;
import java.util.Optional;
import java.util.UUID;

/** An Icechunk repository of an org: versioned Zarr arrays at a server-chosen prefix. */
public record Repo(
    UUID id,
    UUID orgId,
    CatalogName name,
    StorageLocation location,
    Optional<String> description,
    Instant createdAt,
    Optional<Instant> deletedAt) {
  public Repo {
    Objects.requireNonNull(id, "id");
    Objects.requireNonNull(orgId, "orgId");
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(location, "location");
    Objects.requireNonNull(description, "description");
    description.ifPresent(text -> StorableText.require(text, "the description"));
    Objects.requireNonNull(createdAt, "createdAt");
    Objects.requireNonNull(deletedAt, "deletedAt");
  }
}
