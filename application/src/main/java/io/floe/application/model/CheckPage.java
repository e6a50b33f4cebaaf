package io.floe.application.model;

import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * One page of a check: what it found, how many things it looked at, and where the next page
 * starts; no {@code next} when the check is complete.
 */
public record CheckPage(List<CheckFinding> findings, int checked, Optional<CheckCursor> next) {
  /** Things looked at per page when the caller does not say. */
  public static final int DEFAULT_LIMIT = 200;
  public static final int MAX_LIMIT = 1000;

  public CheckPage {
    findings = List.copyOf(findings);
    Objects.requireNonNull(next, "next");
  }
}
