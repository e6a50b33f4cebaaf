package io.floe.application.port.out;

import io.floe.application.model.ListingScope;
import io.floe.domain.CatalogName;
import io.floe.domain.Namespace;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;

/** Iceberg namespaces. Only live (not soft-deleted) namespaces are found by name. */
public interface NamespaceStore {
  void insert(Namespace namespace);

  Optional<Namespace> findLive(UUID orgId, CatalogName name);

  /** Live namespaces ordered by name, strictly after {@code afterName} when given. */
  List<Namespace> listLive(UUID orgId, Optional<String> afterName, int limit);

  /**
   * Like {@link #listLive(UUID, Optional, int)}, only the namespaces in {@code scope}: filtered in
   * the query, so that a page is full however few of the org's namespaces the caller may see.
   */
  List<Namespace> listLive(UUID orgId, ListingScope scope, Optional<String> afterName, int limit);

  /** Applies removals then updates to the properties in one statement; returns the new state. */
  Namespace updateProperties(UUID namespaceId, Set<String> removals, Map<String, String> updates,
      Instant now);

  /** Whether any table or view lives in the namespace. */
  boolean hasObjects(UUID namespaceId);
}
