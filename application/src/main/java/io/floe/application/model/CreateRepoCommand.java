package io.floe.application.model;

import io.floe.domain.CatalogName;
import io.floe.domain.InvalidNameException;
import java.util.Objects;
import java.util.Optional;
import org.apache.iceberg.exceptions.BadRequestException;

/**
 * What creating a repo takes: its name, optionally the nickname of the bucket configuration to put
 * it on (else the org's default bucket), a description for people, and who writes the new Icechunk
 * repository. Validates itself, so that a command that exists is a command that can be tried.
 */
public record CreateRepoCommand(CatalogName name, Optional<CatalogName> bucketNickname,
    Optional<String> description, Initializer initializer) {
  public static final int MAX_DESCRIPTION_LENGTH = 4096;

  /**
   * Who writes the Icechunk repository at the claimed prefix: Floe, before it answers, or the
   * client that registers the repo and then creates the repository itself (the arraylake client's
   * way), which needs an empty prefix to do so.
   */
  public enum Initializer { SERVER, CLIENT }

  public CreateRepoCommand {
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(bucketNickname, "bucketNickname");
    Objects.requireNonNull(description, "description");
    Objects.requireNonNull(initializer, "initializer");
    if (description.map(String::length).orElse(0) > MAX_DESCRIPTION_LENGTH) {
      throw new BadRequestException("A repo description may have at most %d characters",
          MAX_DESCRIPTION_LENGTH);
    }
  }

  /** Parses the raw fields of a request; a missing or invalid name or nickname is a 400. */
  public static CreateRepoCommand of(String name, String bucketNickname, String description,
      Initializer initializer) {
    if (name == null) {
      throw new BadRequestException("A repo needs a name");
    }
    try {
      return new CreateRepoCommand(new CatalogName(name),
          Optional.ofNullable(bucketNickname).map(CatalogName::new),
          Optional.ofNullable(description), initializer);
    } catch (InvalidNameException e) {
      throw new BadRequestException("%s", e.getMessage());
    }
  }
}
