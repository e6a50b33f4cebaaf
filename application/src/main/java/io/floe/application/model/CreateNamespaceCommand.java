package io.floe.application.model;

import io.floe.domain.CatalogName;
import io.floe.domain.InvalidNameException;
import io.floe.domain.MetadataValue;
import io.floe.domain.Visibility;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * A namespace as someone asks for it. Without a bucket nickname the org's default bucket is used;
 * the storage prefix is always chosen by the server.
 */
public record CreateNamespaceCommand(
    CatalogName name,
    Optional<CatalogName> bucketNickname,
    Optional<String> description,
    Map<String, MetadataValue> metadata,
    Map<String, String> properties,
    Visibility visibility) {

  public CreateNamespaceCommand {
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(bucketNickname, "bucketNickname");
    Objects.requireNonNull(description, "description");
    metadata = Map.copyOf(metadata);
    properties = Map.copyOf(properties);
    Objects.requireNonNull(visibility, "visibility");
    description.ifPresent(DescriptiveFields::requireValidDescription);
    DescriptiveFields.requireValidMetadata(metadata);
  }

  /** Parses a name from outside: a rule broken is a validation error that says which rule. */
  public static CatalogName name(String raw, String what) {
    if (raw == null) {
      throw Invalid.because(what + " is required");
    }
    try {
      return new CatalogName(raw);
    } catch (InvalidNameException e) {
      throw Invalid.because("invalid " + what + ": " + e.getMessage());
    }
  }
}
