package io.floe.domain;

import java.time.Instant;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.UUID;

/**
 * A flat Iceberg namespace of an org, bound to one bucket and owning a server-generated prefix
 * there. {@code properties} belong to engines; {@code description} and {@code metadata} to people.
 */
public record Namespace(
    UUID id,
    UUID orgId,
    CatalogName name,
    UUID bucketId,
    StoragePath prefix,
    Map<String, String> properties,
    Optional<String> description,
    Map<String, MetadataValue> metadata,
    Visibility visibility,
    Instant createdAt,
    Instant updatedAt,
    Optional<Instant> deletedAt) {

  /** The Iceberg property engines write for {@code COMMENT ON SCHEMA}. */
  public static final String COMMENT_PROPERTY = "comment";

  /**
   * The property that tells engines where the namespace's tables live: the server's, answered on
   * load and never stored.
   */
  public static final String LOCATION_PROPERTY = "location";

  public Namespace {
    Objects.requireNonNull(id, "id");
    Objects.requireNonNull(orgId, "orgId");
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(bucketId, "bucketId");
    Objects.requireNonNull(prefix, "prefix");
    properties = Map.copyOf(properties);
    properties.forEach((key, value) -> {
      StorableText.require(key, "a property name");
      StorableText.require(value, "property '" + key + "'");
    });
    Objects.requireNonNull(description, "description");
    description.ifPresent(text -> StorableText.require(text, "the description"));
    metadata = Map.copyOf(metadata);
    metadata.keySet().forEach(key -> StorableText.require(key, "a metadata key"));
    Objects.requireNonNull(visibility, "visibility");
    Objects.requireNonNull(createdAt, "createdAt");
    Objects.requireNonNull(updatedAt, "updatedAt");
    Objects.requireNonNull(deletedAt, "deletedAt");
  }

  /** The description people see: their own, else the engines' {@code comment} property. */
  public Optional<String> effectiveDescription() {
    return description.or(() -> Optional.ofNullable(properties.get(COMMENT_PROPERTY)));
  }

  public boolean isDeleted() {
    return deletedAt.isPresent();
  }
}
