package io.floe.application.model;

import java.time.Duration;
import java.time.Instant;
import java.util.Objects;
import java.util.Optional;
import java.util.UUID;

/** Issues an API token to a user or API client, optionally expiring, with a note for people. */
public record IssueTokenCommand(UUID principalId, Optional<Instant> expiresAt,
    Optional<String> description) {
  public static final int MAX_DESCRIPTION_LENGTH = 500;
  /** The longest a token may live: ten years, whether given as a time or as a lifetime. */
  public static final Duration MAX_LIFETIME = Duration.ofDays(10L * 365);

  public IssueTokenCommand {
    Objects.requireNonNull(principalId, "principalId");
    Objects.requireNonNull(expiresAt, "expiresAt");
    Objects.requireNonNull(description, "description");
    description = description.map(text -> Text.bounded(text, "description",
        MAX_DESCRIPTION_LENGTH));
  }
}
