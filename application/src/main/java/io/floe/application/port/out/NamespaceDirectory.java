package io.floe.application.port.out;

import io.floe.application.model.ListingScope;
import io.floe.application.model.NamespaceQuery;
import io.floe.application.model.Page;
import io.floe.application.model.TableQuery;
import io.floe.application.model.TableScope;
import io.floe.domain.CatalogName;
import io.floe.domain.CatalogObject;
import io.floe.domain.Namespace;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.UUID;

/**
 * Namespace and table listings for people. Filtering, sorting and paging happen in the store, so
 * a page costs the same however many namespaces the org has; {@code scope} says which namespaces
 * the caller may see.
 */
public interface NamespaceDirectory {
  /**
   * A namespace with what listings show beside it; {@code tableCount} counts the tables the
   * listing's scope lets the caller see, not all of them.
   */
  record Listed(Namespace namespace, String bucketNickname, long tableCount) {}

  /** The live namespace of that name, its tables counted as {@code scope} sees them. */
  Optional<Listed> findLive(UUID orgId, CatalogName name, ListingScope scope);

  /** Every live namespace in scope by name, and with {@code ghostsAt} the restorable deleted ones. */
  List<Listed> list(UUID orgId, ListingScope scope, Optional<Instant> ghostsAt);

  Page<Listed> search(UUID orgId, ListingScope scope, NamespaceQuery query, Instant now);

  /** A page of one namespace's tables (not views) within {@code scope}, filtered before paging. */
  Page<CatalogObject> tables(UUID namespaceId, TableScope scope, TableQuery query);
}
