package io.floe.application.model;

import java.util.Locale;

/** The order of a listing. */
public enum SortDirection {
  ASC,
  DESC;

  public static SortDirection parse(String raw) {
    if (raw == null || raw.isBlank()) {
      return DESC;
    }
    try {
      return valueOf(raw.strip().toUpperCase(Locale.ROOT));
    } catch (IllegalArgumentException e) {
      throw Invalid.because("direction must be 'asc' or 'desc', got '" + raw + "'");
    }
  }
}
