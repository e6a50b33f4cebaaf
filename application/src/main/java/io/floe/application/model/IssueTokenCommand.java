package io.floe.application.model;

import java.time.Instant;
import java.util.Objects;
import java.util.Optional;
import java.util.UUID;

/** Issues an API token to a user or API client, optionally expiring, with a note for people. */
public record IssueTokenCommand(UUID principalId, Optional<Instant> expiresAt,
    Optional<String> description) {
  public static final int MAX_DESCRIPTION_LENGTH = 500;

  public IssueTokenCommand {
    Objects.requireNonNull(principalId, "principalId");
    Objects.requireNonNull(expiresAt, "expiresAt");
    Objects.requireNonNull(description, "description");
    description = description.map(text -> Text.bounded(text, "description",
        MAX_DESCRIPTION_LENGTH));
  }
}
