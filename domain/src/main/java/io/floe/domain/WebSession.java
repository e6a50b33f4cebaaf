package io.floe.domain;

import java.time.Instant;
import java.util.Objects;
import java.util.Optional;
import java.util.UUID;

/**
 * A signed-in browser as the server keeps it: only the SHA-256 of the secret its cookie holds is
 * stored, with the token that forms must echo (CSRF). A session signed in with an API token
 * lives no longer than that token: {@code apiTokenId} names it.
 */
public record WebSession(
    UUID id,
    UUID principalId,
    String secretHash,
    Optional<UUID> apiTokenId,
    String csrfToken,
    Instant createdAt,
    Instant expiresAt,
    Optional<Instant> endedAt) {

  public WebSession {
    Objects.requireNonNull(id, "id");
    Objects.requireNonNull(principalId, "principalId");
    Objects.requireNonNull(secretHash, "secretHash");
    Objects.requireNonNull(apiTokenId, "apiTokenId");
    Objects.requireNonNull(csrfToken, "csrfToken");
    Objects.requireNonNull(createdAt, "createdAt");
    Objects.requireNonNull(expiresAt, "expiresAt");
    Objects.requireNonNull(endedAt, "endedAt");
    if (!expiresAt.isAfter(createdAt)) {
      throw new DomainException("a session must expire after it starts");
    }
  }

  /** Whether the session may still act at {@code now}: not signed out, not expired. */
  public boolean isActiveAt(Instant now) {
    return endedAt.isEmpty() && now.isBefore(expiresAt);
  }
}
