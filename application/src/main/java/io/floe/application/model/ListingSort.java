package io.floe.application.model;

import java.util.Locale;
import java.util.Optional;

/**
 * What a namespace or table listing is sorted by. {@code RELEVANCE} needs a search text and is the
 * default with one; {@code NAME} is refused with one, since relevance already orders by name
 * within a rank. Without search the default is {@code UPDATED}.
 */
public enum ListingSort {
  RELEVANCE,
  UPDATED,
  CREATED,
  NAME,
  /** Namespaces only: by number of tables. */
  TABLES;

  public static Optional<ListingSort> parse(String raw) {
    if (raw == null || raw.isBlank()) {
      return Optional.empty();
    }
    try {
      return Optional.of(valueOf(raw.strip().toUpperCase(Locale.ROOT)));
    } catch (IllegalArgumentException e) {
      throw Invalid.because("sort must be one of relevance, updated, created, name, tables; got '"
          + raw + "'");
    }
  }

  /** The sort a listing uses: the requested one if it fits the search, else the default. */
  static ListingSort resolve(Optional<ListingSort> requested, Optional<String> search) {
    ListingSort sort = requested.orElse(search.isPresent() ? RELEVANCE : UPDATED);
    if (sort == RELEVANCE && search.isEmpty()) {
      throw Invalid.because("sort 'relevance' needs a search text");
    }
    if (sort == NAME && search.isPresent()) {
      throw Invalid.because("sort 'name' is not available with a search; use 'relevance'");
    }
    return sort;
  }

  public String wireName() {
    return name().toLowerCase(Locale.ROOT);
  }
}
