package io.floe.application.security;

import io.floe.domain.Visibility;
import java.util.Set;

/**
 * Which namespaces a listing may show a caller, in a form stores can turn into a query: all of
 * them, or those whose visibility lets everyone in the org read them.
 */
public record ListingScope(boolean everything, Set<Visibility> readableByAll) {
  public ListingScope {
    readableByAll = Set.copyOf(readableByAll);
  }

  public static ListingScope all() {
    return new ListingScope(true, Set.of());
  }
}
