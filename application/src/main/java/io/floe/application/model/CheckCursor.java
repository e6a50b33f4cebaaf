package io.floe.application.model;

import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.Objects;

/**
 * Where a check stopped, so that the next page carries on from there: which phase, and a position
 * inside it ({@code at} and {@code after}, both meaningful only to that phase's checker). Clients
 * see it as an opaque token.
 */
public record CheckCursor(Phase phase, String at, String after) {
  /** The phases of a check, in the order it runs them. */
  public enum Phase { OBJECTS, REPOS, BUCKETS, DELETIONS }

  private static final char SEPARATOR = '\u0000';

  public CheckCursor {
    Objects.requireNonNull(phase, "phase");
    Objects.requireNonNull(at, "at");
    Objects.requireNonNull(after, "after");
  }

  /** The start of a check. */
  public static CheckCursor start() {
    return new CheckCursor(Phase.OBJECTS, "", "");
  }

  /** The start of {@code phase}. */
  public static CheckCursor startOf(Phase phase) {
    return new CheckCursor(phase, "", "");
  }

  public String encode() {
    String raw = phase.name() + SEPARATOR + at + SEPARATOR + after;
    return Base64.getUrlEncoder().withoutPadding()
        .encodeToString(raw.getBytes(StandardCharsets.UTF_8));
  }

  /** The cursor a token of {@link #encode} names; anything else is an IllegalArgumentException. */
  public static CheckCursor decode(String token) {
    String raw = new String(Base64.getUrlDecoder().decode(token), StandardCharsets.UTF_8);
    String[] parts = raw.split(String.valueOf(SEPARATOR), -1);
    if (parts.length != 3) {
      throw new IllegalArgumentException("not a check token");
    }
    return new CheckCursor(Phase.valueOf(parts[0]), parts[1], parts[2]);
  }
}
