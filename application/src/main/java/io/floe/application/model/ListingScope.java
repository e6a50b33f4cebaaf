package io.floe.application.model;

import io.floe.domain.Visibility;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;

/**
 * Which namespaces a listing may show a caller, in a form stores can turn into a query: all of
 * them, or those whose visibility lets everyone in the org read them plus, when {@code grantee}
 * is set, those where that principal (or a team it belongs to) holds a grant on the namespace or
 * on a table in it.
 */
public record ListingScope(boolean everything, Set<Visibility> readableByAll,
    Optional<UUID> grantee) {
  public ListingScope {
    readableByAll = Set.copyOf(readableByAll);
    Objects.requireNonNull(grantee, "grantee");
  }

  public ListingScope(boolean everything, Set<Visibility> readableByAll) {
    this(everything, readableByAll, Optional.empty());
  }

  public static ListingScope all() {
    return new ListingScope(true, Set.of());
  }
}
