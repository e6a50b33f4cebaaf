package io.floe.adapters.persistence.jooq;

import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.Optional;

/** Conversions between the domain's instants and PostgreSQL's timestamptz. */
final class Times {
  private Times() {}

  static OffsetDateTime of(Instant instant) {
    return instant == null ? null : instant.atOffset(ZoneOffset.UTC);
  }

  static Instant instant(OffsetDateTime time) {
    return time == null ? null : time.toInstant();
  }

  static Optional<Instant> optional(OffsetDateTime time) {
    return Optional.ofNullable(time).map(OffsetDateTime::toInstant);
  }
}
