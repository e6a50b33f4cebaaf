package io.floe.application.port.out.contract;

import static org.assertj.core.api.Assertions.assertThat;

import io.floe.application.model.ListingScope;
import io.floe.application.model.ListingSort;
import io.floe.application.model.NamespaceQuery;
import io.floe.application.model.Page;
import io.floe.application.model.PageRequest;
import io.floe.application.model.SortDirection;
import io.floe.application.model.TableQuery;
import io.floe.application.model.TableScope;
import io.floe.application.port.out.NamespaceDirectory;
import io.floe.application.port.out.NamespaceDirectory.Listed;
import io.floe.domain.Action;
import io.floe.domain.CatalogName;
import io.floe.domain.CatalogObject;
import io.floe.domain.MetadataValue;
import io.floe.domain.Namespace;
import io.floe.domain.Principal;
import io.floe.domain.StorageLocation;
import io.floe.domain.TableName;
import io.floe.domain.Visibility;
import java.math.BigDecimal;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * {@link NamespaceDirectory}: listings filter (scope, ghosts, search, metadata containment),
 * count, sort and page in the store. A search matches the name or the description people see;
 * relevance ranks an exact name, then a name prefix, then a name substring, then a description
 * match; ties go by name.
 */
public abstract class NamespaceDirectoryContract extends PortContract {
  private NamespaceDirectory directory() {
    return ports().namespaceDirectory();
  }

  private static List<String> names(Page<Listed> page) {
    return page.items().stream().map(listed -> listed.namespace().name().value()).toList();
  }

  private NamespaceQuery query(Optional<String> search, Map<String, MetadataValue> filter,
      Optional<ListingSort> sort, SortDirection direction, boolean ghosts, int page, int size) {
    return NamespaceQuery.of(search, filter, sort, direction, ghosts, new PageRequest(page, size));
  }

  private Namespace namespace(String name, Optional<String> description,
      Map<String, String> properties, Map<String, MetadataValue> metadata, Instant createdAt) {
    Namespace namespace = new Namespace(UUID.randomUUID(), fixture.org.id(),
        new CatalogName(name), fixture.bucket.id(),
        fixture.bucket.prefix().resolve(UUID.randomUUID().toString().substring(0, 8) + "_" + name),
        properties, description, metadata, Visibility.PRIVATE, createdAt, createdAt,
        Optional.empty());
    ports().namespaces().insert(namespace);
    return namespace;
  }

  @Test
  void aLiveNamespaceIsListedWithItsBucketAndTableCount() {
    Namespace ns = fixture.namespace("Sales");
    fixture.table(ns, "a");
    fixture.table(ns, "b");
    fixture.view(ns, "v");
    Listed listed = directory().findLive(fixture.org.id(), new CatalogName("sales"),
        ListingScope.all()).orElseThrow();
    assertThat(listed).isEqualTo(new Listed(ns, "main", 2));
    ports().namespaceDeletes().markDeleted(ns.id(), fixture.now, fixture.now.plusSeconds(60),
        false, false);
    assertThat(directory().findLive(fixture.org.id(), ns.name(), ListingScope.all())).isEmpty();
  }

  @Test
  void aTableCountCountsOnlyTheTablesTheScopeLetsTheCallerSee() {
    Namespace ns = fixture.namespace("sales");
    CatalogObject granted = fixture.table(ns, "a");
    fixture.table(ns, "b");
    fixture.table(ns, "c");
    Principal ada = fixture.user("ada");
    fixture.grant(ada, ns, Optional.of(granted), Action.READ);
    ListingScope adas = new ListingScope(false, Set.of(), Optional.of(ada.id()));
    assertThat(directory().findLive(fixture.org.id(), ns.name(), adas).orElseThrow()
        .tableCount()).isEqualTo(1);
    assertThat(directory().list(fixture.org.id(), adas, Optional.empty()))
        .extracting(Listed::tableCount).containsExactly(1L);
    assertThat(directory().search(fixture.org.id(), adas, query(Optional.empty(), Map.of(),
        Optional.of(ListingSort.NAME), SortDirection.ASC, false, 1, 10), fixture.now).items())
        .extracting(Listed::tableCount).containsExactly(1L);

    fixture.grant(ada, ns, Optional.empty(), Action.READ);
    assertThat(directory().findLive(fixture.org.id(), ns.name(), adas).orElseThrow()
        .tableCount()).isEqualTo(3);
    assertThat(directory().findLive(fixture.org.id(), ns.name(), new ListingScope(false,
        Set.of(Visibility.PRIVATE), Optional.empty())).orElseThrow().tableCount()).isEqualTo(3);
  }

  @Test
  void aListingIsByNameWithRestorableGhostsOnRequest() {
    Namespace b = fixture.namespace("b");
    Namespace a = fixture.namespace("a");
    Namespace ghost = fixture.namespace("c");
    Namespace released = fixture.namespace("d");
    ports().namespaceDeletes().markDeleted(ghost.id(), fixture.now, fixture.now.plusSeconds(60),
        false, false);
    ports().namespaceDeletes().markDeleted(released.id(), fixture.now,
        fixture.now.plusSeconds(60), false, true);

    assertThat(directory().list(fixture.org.id(), ListingScope.all(), Optional.empty()))
        .extracting(listed -> listed.namespace().id()).containsExactly(a.id(), b.id());
    assertThat(directory().list(fixture.org.id(), ListingScope.all(),
        Optional.of(fixture.now.plusSeconds(30))))
        .extracting(listed -> listed.namespace().id()).containsExactly(a.id(), b.id(), ghost.id());
    assertThat(directory().list(fixture.org.id(), ListingScope.all(),
        Optional.of(fixture.now.plusSeconds(60))))
        .extracting(listed -> listed.namespace().id()).containsExactly(a.id(), b.id());
  }

  @Test
  void aListingShowsOnlyWhatTheScopeLetsTheCallerSee() {
    Principal ada = fixture.user("ada");
    Namespace open = fixture.namespace("a", Visibility.AUTHENTICATED_PUBLIC);
    Namespace granted = fixture.namespace("b");
    fixture.namespace("c");
    fixture.grant(ada, granted, Optional.empty(), Action.READ);
    ListingScope scope = new ListingScope(false, Set.of(Visibility.AUTHENTICATED_PUBLIC),
        Optional.of(ada.id()));
    assertThat(directory().list(fixture.org.id(), scope, Optional.empty()))
        .extracting(listed -> listed.namespace().id()).containsExactly(open.id(), granted.id());
    Page<Listed> page = directory().search(fixture.org.id(), scope,
        query(Optional.empty(), Map.of(), Optional.of(ListingSort.NAME), SortDirection.ASC,
            false, 1, 10), fixture.now);
    assertThat(page.total()).isEqualTo(2);
    assertThat(names(page)).containsExactly("a", "b");
  }

  @Test
  void aSearchRanksNameMatchesBeforeDescriptionMatchesAndPages() {
    namespace("hr", Optional.of("Sales people"), Map.of(), Map.of(), fixture.now);
    namespace("salesforce", Optional.empty(), Map.of(), Map.of(), fixture.now);
    namespace("finance", Optional.empty(), Map.of("comment", "The SALES ledger"), Map.of(),
        fixture.now);
    namespace("presales", Optional.empty(), Map.of(), Map.of(), fixture.now);
    namespace("sales", Optional.empty(), Map.of(), Map.of(), fixture.now);
    namespace("legal", Optional.of("contracts"), Map.of(), Map.of(), fixture.now);

    Page<Listed> first = directory().search(fixture.org.id(), ListingScope.all(),
        query(Optional.of("Sales"), Map.of(), Optional.empty(), SortDirection.DESC, false, 1, 3),
        fixture.now);
    Page<Listed> second = directory().search(fixture.org.id(), ListingScope.all(),
        query(Optional.of("Sales"), Map.of(), Optional.empty(), SortDirection.DESC, false, 2, 3),
        fixture.now);

    assertThat(first.total()).isEqualTo(5);
    assertThat(names(first)).containsExactly("sales", "salesforce", "presales");
    assertThat(names(second)).containsExactly("finance", "hr");
    assertThat(second.page()).isEqualTo(2);
    assertThat(second.size()).isEqualTo(3);
  }

  @Test
  void aMetadataFilterMatchesNamespacesWhoseMetadataContainsIt() {
    MetadataValue data = new MetadataValue.Text("data");
    namespace("one", Optional.empty(), Map.of(), Map.of("team", data,
        "tier", new MetadataValue.Number(BigDecimal.ONE), "pii", new MetadataValue.Bool(false),
        "tags", new MetadataValue.ListOf(List.of(new MetadataValue.Text("a"),
            new MetadataValue.Text("b")))), fixture.now);
    namespace("two", Optional.empty(), Map.of(), Map.of("team", data,
        "tags", new MetadataValue.ListOf(List.of(new MetadataValue.Text("c")))), fixture.now);

    assertThat(filtered(Map.of("team", data))).containsExactly("one", "two");
    assertThat(filtered(Map.of("tags", new MetadataValue.ListOf(
        List.of(new MetadataValue.Text("b")))))).containsExactly("one");
    assertThat(filtered(Map.of("tier", new MetadataValue.Number(new BigDecimal("1.0")))))
        .containsExactly("one");
    assertThat(filtered(Map.of("pii", new MetadataValue.Bool(false), "team", data)))
        .containsExactly("one");
    assertThat(filtered(Map.of("team", new MetadataValue.Text("ops")))).isEmpty();
    assertThat(filtered(Map.of("pii", new MetadataValue.Bool(true)))).isEmpty();
  }

  private List<String> filtered(Map<String, MetadataValue> filter) {
    return names(directory().search(fixture.org.id(), ListingScope.all(),
        query(Optional.empty(), filter, Optional.of(ListingSort.NAME), SortDirection.ASC, false,
            1, 10), fixture.now));
  }

  @Test
  void namespacesSortByTablesCreatedAndUpdatedEitherWay() {
    Namespace old = namespace("old", Optional.empty(), Map.of(), Map.of(),
        fixture.now.minusSeconds(20));
    Namespace mid = namespace("mid", Optional.empty(), Map.of(), Map.of(),
        fixture.now.minusSeconds(10));
    Namespace fresh = namespace("fresh", Optional.empty(), Map.of(), Map.of(), fixture.now);
    fixture.table(mid, "a");
    fixture.table(mid, "b");
    fixture.table(fresh, "a");
    ports().namespaces().updateProperties(old.id(), Set.of(), Map.of("k", "v"),
        fixture.now.plusSeconds(10));

    assertThat(sorted(ListingSort.TABLES, SortDirection.DESC))
        .containsExactly("mid", "fresh", "old");
    assertThat(sorted(ListingSort.CREATED, SortDirection.ASC))
        .containsExactly("old", "mid", "fresh");
    assertThat(sorted(ListingSort.UPDATED, SortDirection.DESC))
        .containsExactly("old", "fresh", "mid");
    assertThat(sorted(ListingSort.NAME, SortDirection.DESC))
        .containsExactly("old", "mid", "fresh");
  }

  private List<String> sorted(ListingSort sort, SortDirection direction) {
    return names(directory().search(fixture.org.id(), ListingScope.all(),
        query(Optional.empty(), Map.of(), Optional.of(sort), direction, false, 1, 10),
        fixture.now));
  }

  @Test
  void aSearchIncludesRestorableGhostsOnRequest() {
    Namespace ghost = fixture.namespace("ghost");
    ports().namespaceDeletes().markDeleted(ghost.id(), fixture.now, fixture.now.plusSeconds(60),
        false, false);
    assertThat(names(directory().search(fixture.org.id(), ListingScope.all(),
        query(Optional.of("ghost"), Map.of(), Optional.empty(), SortDirection.DESC, true, 1, 10),
        fixture.now))).containsExactly("ghost");
    assertThat(directory().search(fixture.org.id(), ListingScope.all(),
        query(Optional.of("ghost"), Map.of(), Optional.empty(), SortDirection.DESC, false, 1, 10),
        fixture.now).total()).isZero();
  }

  @Test
  void aNamespacesTablesAreSearchedSortedAndScoped() {
    Namespace ns = fixture.namespace("shop");
    CatalogObject orders = table(ns, "orders", fixture.now.minusSeconds(30));
    CatalogObject backOrders = table(ns, "back_orders", fixture.now.minusSeconds(20));
    CatalogObject customers = table(ns, "customers", fixture.now.minusSeconds(10));
    fixture.view(ns, "orders_view");

    Page<CatalogObject> search = directory().tables(ns.id(), TableScope.all(),
        TableQuery.of(Optional.of("ORDERS"), Optional.empty(), SortDirection.DESC,
            new PageRequest(1, 10)));
    assertThat(search.items()).containsExactly(orders, backOrders);
    assertThat(search.total()).isEqualTo(2);

    assertThat(directory().tables(ns.id(), TableScope.all(), TableQuery.of(Optional.empty(),
        Optional.of(ListingSort.NAME), SortDirection.ASC, new PageRequest(1, 2))).items())
        .containsExactly(backOrders, customers);
    assertThat(directory().tables(ns.id(), TableScope.all(), TableQuery.of(Optional.empty(),
        Optional.of(ListingSort.CREATED), SortDirection.DESC, new PageRequest(2, 2))).items())
        .containsExactly(orders);
    assertThat(directory().tables(ns.id(), TableScope.all(), TableQuery.of(Optional.empty(),
        Optional.empty(), SortDirection.ASC, new PageRequest(1, 10))).items())
        .containsExactly(orders, backOrders, customers);

    Principal ada = fixture.user("ada");
    fixture.grant(ada, ns, Optional.of(customers), Action.READ);
    Page<CatalogObject> scoped = directory().tables(ns.id(), TableScope.grantedTo(ada.id()),
        TableQuery.of(Optional.empty(), Optional.empty(), SortDirection.DESC,
            new PageRequest(1, 10)));
    assertThat(scoped.items()).containsExactly(customers);
    assertThat(scoped.total()).isEqualTo(1);
  }

  private CatalogObject table(Namespace ns, String name, Instant at) {
    CatalogObject table = new CatalogObject(UUID.randomUUID(), ns.id(), new TableName(name),
        CatalogObject.Kind.TABLE, "v0", new StorageLocation(fixture.bucket.id(),
            ns.prefix().resolve(name)), false, at, at);
    assertThat(ports().objects().insert(table)).isTrue();
    return table;
  }
}
