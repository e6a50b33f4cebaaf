package io.floe.application.port.out.inmemory;

import io.floe.application.model.ListingScope;
import io.floe.application.model.NamespaceQuery;
import io.floe.application.model.Page;
import io.floe.application.model.PageRequest;
import io.floe.application.model.SortDirection;
import io.floe.application.model.TableQuery;
import io.floe.application.model.TableScope;
import io.floe.application.port.out.NamespaceDirectory;
import io.floe.application.port.out.inmemory.InMemoryDatabase.LifecycleRow;
import io.floe.domain.CatalogName;
import io.floe.domain.CatalogObject;
import io.floe.domain.MetadataValue;
import io.floe.domain.Namespace;
import java.time.Instant;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.stream.Stream;

/**
 * Namespace and table listings over the in-memory rows: the same search, metadata containment,
 * sort keys and tie-breakers as the SQL adapter's queries.
 */
public final class InMemoryNamespaceDirectory implements NamespaceDirectory {
  private final InMemoryDatabase db;
  private final InMemoryAccess access;

  public InMemoryNamespaceDirectory(InMemoryDatabase db) {
    this.db = db;
    this.access = new InMemoryAccess(db);
  }

  @Override
  public Optional<Listed> findLive(UUID orgId, CatalogName name, ListingScope scope) {
    return db.statement(() -> listed(orgId, scope)
        .filter(listed -> !listed.namespace().isDeleted()
            && listed.namespace().name().key().equals(name.key()))
        .findFirst());
  }

  @Override
  public List<Listed> list(UUID orgId, ListingScope scope, Optional<Instant> ghostsAt) {
    return db.statement(() -> listed(orgId, scope)
        .filter(listed -> access.inScope(listed.namespace(), scope))
        .filter(listed -> liveOrGhost(listed.namespace(), ghostsAt))
        .sorted(Comparator.comparing((Listed listed) -> listed.namespace().name().key())
            .thenComparing(listed -> listed.namespace().id()))
        .toList());
  }

  @Override
  public Page<Listed> search(UUID orgId, ListingScope scope, NamespaceQuery query, Instant now) {
    return db.statement(() -> {
      List<Listed> matching = listed(orgId, scope)
          .filter(listed -> access.inScope(listed.namespace(), scope))
          .filter(listed -> liveOrGhost(listed.namespace(),
              query.includeGhosts() ? Optional.of(now) : Optional.empty()))
          .filter(listed -> query.search().map(text -> matches(listed.namespace(), text))
              .orElse(true))
          .filter(listed -> contains(listed.namespace().metadata(), query.metadataFilter()))
          .toList();
      Comparator<Listed> key = switch (query.sort()) {
        case RELEVANCE -> Comparator.comparing(
            listed -> relevance(listed.namespace().name().key(), query.search().orElseThrow()));
        case CREATED -> Comparator.comparing(listed -> listed.namespace().createdAt());
        case NAME -> Comparator.comparing(listed -> listed.namespace().name().key());
        case TABLES -> Comparator.comparing(Listed::tableCount);
        case UPDATED -> Comparator.comparing(listed -> listed.namespace().updatedAt());
      };
      return page(matching, directed(key, query.direction())
          .thenComparing(listed -> listed.namespace().name().key())
          .thenComparing(listed -> listed.namespace().id()), query.page());
    });
  }

  @Override
  public Page<CatalogObject> tables(UUID namespaceId, TableScope scope, TableQuery query) {
    return db.statement(() -> {
      List<CatalogObject> matching = db.objects.values().stream()
          .filter(object -> object.namespaceId().equals(namespaceId)
              && object.kind() == CatalogObject.Kind.TABLE && access.inScope(object, scope))
          .filter(object -> query.search()
              .map(text -> lower(object.name().value()).contains(lower(text))).orElse(true))
          .toList();
      Comparator<CatalogObject> key = switch (query.sort()) {
        case RELEVANCE -> Comparator.comparing(
            object -> relevance(lower(object.name().value()), query.search().orElseThrow()));
        case CREATED -> Comparator.comparing(CatalogObject::createdAt);
        case NAME -> Comparator.comparing(object -> object.name().value());
        default -> Comparator.comparing(CatalogObject::updatedAt);
      };
      return page(matching, directed(key, query.direction())
          .thenComparing(object -> object.name().value())
          .thenComparing(CatalogObject::id), query.page());
    });
  }

  private Stream<Listed> listed(UUID orgId, ListingScope scope) {
    return db.namespaces.values().stream().map(LifecycleRow::owner)
        .filter(namespace -> namespace.orgId().equals(orgId))
        .flatMap(namespace -> db.buckets.get(namespace.bucketId()).map(bucket -> new Listed(
            namespace, bucket.nickname().value(), tableCount(namespace, scope))).stream());
  }

  /** The namespace's tables that {@code scope} lets the caller see. */
  private long tableCount(Namespace namespace, ListingScope scope) {
    return db.objects.values().stream().filter(object ->
        object.namespaceId().equals(namespace.id()) && object.kind() == CatalogObject.Kind.TABLE
            && access.counts(object, namespace, scope))
        .count();
  }

  private boolean liveOrGhost(Namespace namespace, Optional<Instant> ghostsAt) {
    return !namespace.isDeleted() || ghostsAt.filter(now -> InMemoryNamespaceLifecycleStore
        .isRestorable(db.namespaces.get(namespace.id()).orElseThrow(), now)).isPresent();
  }

  /** A search matches the name or the description people see (their own, or the comment). */
  private static boolean matches(Namespace namespace, String text) {
    return namespace.name().key().contains(lower(text))
        || namespace.effectiveDescription().map(description -> lower(description)
            .contains(lower(text))).orElse(false);
  }

  /** Exact name, then name prefix, then name substring, then a match in the description only. */
  private static int relevance(String lowercaseName, String search) {
    String text = lower(search);
    if (lowercaseName.equals(text)) {
      return 3;
    } else if (lowercaseName.startsWith(text)) {
      return 2;
    }
    return lowercaseName.contains(text) ? 1 : 0;
  }

  /**
   * JSONB containment of one object in another: every filter key is present, scalars are equal
   * (numbers by value), and a list contains every item of the filter's list.
   */
  private static boolean contains(Map<String, MetadataValue> metadata,
      Map<String, MetadataValue> filter) {
    return filter.entrySet().stream().allMatch(wanted -> metadata.containsKey(wanted.getKey())
        && contains(metadata.get(wanted.getKey()), wanted.getValue()));
  }

  private static boolean contains(MetadataValue value, MetadataValue wanted) {
    if (value instanceof MetadataValue.ListOf list && wanted instanceof MetadataValue.ListOf items) {
      return items.values().stream().allMatch(item ->
          list.values().stream().anyMatch(element -> sameScalar(element, item)));
    }
    return sameScalar(value, wanted);
  }

  private static boolean sameScalar(MetadataValue a, MetadataValue b) {
    if (a instanceof MetadataValue.Number x && b instanceof MetadataValue.Number y) {
      return x.value().compareTo(y.value()) == 0;
    }
    return !(a instanceof MetadataValue.ListOf) && a.equals(b);
  }

  private static <T> Comparator<T> directed(Comparator<T> key, SortDirection direction) {
    return direction == SortDirection.ASC ? key : key.reversed();
  }

  private static <T> Page<T> page(List<T> matching, Comparator<T> order, PageRequest page) {
    List<T> items = matching.stream().sorted(order)
        .skip(page.offset()).limit(page.size()).toList();
    return new Page<>(items, matching.size(), page.page(), page.size());
  }

  private static String lower(String text) {
    return text.toLowerCase(Locale.ROOT);
  }
}
