package io.floe.adapters.rest.web;

import java.util.Map;
import java.util.Optional;

/**
 * What a page says after a form succeeded. A redirect names the notice by code ({@code ?done=}),
 * never by text, so that no link can make a Floe page say something Floe did not write.
 */
final class Notices {
  private static final Map<String, String> TEXT = Map.ofEntries(
      Map.entry("saved", "Saved."),
      Map.entry("grant-added", "Access granted."),
      Map.entry("grant-removed", "Access removed."),
      Map.entry("deleted", "Deleted."),
      Map.entry("restored", "Restored."),
      Map.entry("created", "Created."),
      Map.entry("token-revoked", "Token revoked: it no longer works."),
      Map.entry("member-added", "Added to the team."),
      Map.entry("member-removed", "Removed."));

  private Notices() {}

  static Optional<String> text(String code) {
    return Optional.ofNullable(TEXT.get(code));
  }
}
