package io.floe.adapters.rest.web;

import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;

/** Instants as pages show them: to the minute, in UTC, and in full for {@code datetime}. */
final class Times {
  private static final DateTimeFormatter SHOWN =
      DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm 'UTC'").withZone(ZoneOffset.UTC);

  private Times() {}

  static String shown(Instant instant) {
    return instant == null ? "" : SHOWN.format(instant);
  }

  static String iso(Instant instant) {
    return instant == null ? "" : instant.toString();
  }
}
