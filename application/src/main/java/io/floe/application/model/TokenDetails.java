package io.floe.application.model;

import java.time.Instant;
import java.util.Objects;
import java.util.Optional;
import java.util.UUID;

/** What is shown about an API token: never its secret, which only exists when it is issued. */
public record TokenDetails(UUID id, UUID principalId, Optional<String> description,
    Instant createdAt, Optional<Instant> expiresAt, Optional<Instant> revokedAt,
    Optional<Instant> lastUsedAt) {
  public TokenDetails {
    Objects.requireNonNull(id, "id");
    Objects.requireNonNull(principalId, "principalId");
    Objects.requireNonNull(description, "description");
    Objects.requireNonNull(createdAt, "createdAt");
    Objects.requireNonNull(expiresAt, "expiresAt");
    Objects.requireNonNull(revokedAt, "revokedAt");
    Objects.requireNonNull(lastUsedAt, "lastUsedAt");
  }
}
