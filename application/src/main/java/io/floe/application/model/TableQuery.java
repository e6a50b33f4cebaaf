package io.floe.application.model;

import java.util.Objects;
import java.util.Optional;

/** A page of a namespace's tables, optionally those whose name contains {@code search}. */
public record TableQuery(
    Optional<String> search, ListingSort sort, SortDirection direction, PageRequest page) {

  public TableQuery {
    search = search.map(String::strip).filter(text -> !text.isEmpty());
    Objects.requireNonNull(sort, "sort");
    Objects.requireNonNull(direction, "direction");
    Objects.requireNonNull(page, "page");
    if (sort == ListingSort.TABLES) {
      throw Invalid.because("sort 'tables' is only available for namespaces");
    }
  }

  public static TableQuery of(Optional<String> search, Optional<ListingSort> sort,
      SortDirection direction, PageRequest page) {
    Optional<String> text = search.map(String::strip).filter(value -> !value.isEmpty());
    return new TableQuery(text, ListingSort.resolve(sort, text), direction, page);
  }
}
