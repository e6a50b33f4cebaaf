package io.floe.application.model;

import io.floe.domain.MetadataValue;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * A page of an org's namespaces: optionally those whose name or description contains
 * {@code search}, whose metadata contains every entry of {@code metadataFilter}, and with the
 * soft-deleted namespaces that can still be restored.
 */
public record NamespaceQuery(
    Optional<String> search,
    Map<String, MetadataValue> metadataFilter,
    ListingSort sort,
    SortDirection direction,
    boolean includeGhosts,
    PageRequest page) {

  public NamespaceQuery {
    search = search.map(String::strip).filter(text -> !text.isEmpty());
    metadataFilter = Map.copyOf(metadataFilter);
    Objects.requireNonNull(sort, "sort");
    Objects.requireNonNull(direction, "direction");
    Objects.requireNonNull(page, "page");
  }

  /** Resolves the sort against the search: the defaults, and the combinations that make sense. */
  public static NamespaceQuery of(Optional<String> search, Map<String, MetadataValue> filter,
      Optional<ListingSort> sort, SortDirection direction, boolean includeGhosts,
      PageRequest page) {
    Optional<String> text = search.map(String::strip).filter(value -> !value.isEmpty());
    return new NamespaceQuery(text, filter, ListingSort.resolve(sort, text), direction,
        includeGhosts, page);
  }
}
