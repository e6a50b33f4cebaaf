package io.floe.application.model;

import java.time.Duration;
import java.time.Instant;
import java.util.Objects;
import java.util.Optional;
import java.util.UUID;

/**
 * One attempt to deliver an event to a subscriber, as its delivery log shows it: the HTTP status
 * it answered (none when it could not be reached), how long it took, and what went wrong.
 */
public record DeliveryAttempt(UUID eventId, Instant attemptedAt, int attempt,
    Optional<Integer> status, Duration latency, Optional<String> error, boolean delivered) {
  public DeliveryAttempt {
    Objects.requireNonNull(eventId, "eventId");
    Objects.requireNonNull(attemptedAt, "attemptedAt");
    Objects.requireNonNull(status, "status");
    Objects.requireNonNull(latency, "latency");
    Objects.requireNonNull(error, "error");
  }
}
