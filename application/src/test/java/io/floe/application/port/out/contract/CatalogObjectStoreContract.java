package io.floe.application.port.out.contract;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.floe.application.model.TableScope;
import io.floe.application.port.out.CatalogObjectStore;
import io.floe.domain.Action;
import io.floe.domain.CatalogName;
import io.floe.domain.CatalogObject;
import io.floe.domain.Namespace;
import io.floe.domain.Principal;
import io.floe.domain.StoragePath;
import io.floe.domain.TableName;
import java.util.Optional;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * {@link CatalogObjectStore}: one table or view per name in a namespace (names compared exactly);
 * found through the live namespace's name (compared case-insensitively); listed by name in keyset
 * pages, optionally only those granted to a principal; no two entries share files.
 */
public abstract class CatalogObjectStoreContract extends PortContract {
  private CatalogObjectStore objects() {
    return ports().objects();
  }

  @Test
  void aNamespaceHoldsOneObjectPerName() {
    Namespace ns = fixture.namespace("dup");
    fixture.table(ns, "t");
    assertThat(objects().insert(fixture.objectRow(ns, "t", CatalogObject.Kind.VIEW, "b")))
        .isFalse();
    // Table names keep their case and are compared exactly, as engines do.
    fixture.view(ns, "T");
    assertThat(objects().find(fixture.org.id(), ns.name(), new TableName("T")).orElseThrow()
        .kind()).isEqualTo(CatalogObject.Kind.VIEW);
  }

  @Test
  void objectsAreFoundThroughTheirLiveNamespacesName() {
    Namespace ns = fixture.namespace("Sales");
    CatalogObject orders = fixture.table(ns, "orders");
    assertThat(objects().find(fixture.org.id(), new CatalogName("SALES"),
        new TableName("orders"))).contains(orders);
    assertThat(objects().find(fixture.newOrg().id(), new CatalogName("sales"),
        new TableName("orders"))).isEmpty();
    assertThat(objects().find(fixture.org.id(), ns.name(), new TableName("missing"))).isEmpty();
    ports().namespaceDeletes().markDeleted(ns.id(), fixture.now, fixture.now.plusSeconds(60),
        false, false);
    assertThat(objects().find(fixture.org.id(), ns.name(), new TableName("orders"))).isEmpty();
  }

  @Test
  void objectsAreFoundByTheirNamespacesId() {
    Namespace ns = fixture.namespace("byid");
    CatalogObject orders = fixture.table(ns, "orders");
    fixture.table(fixture.namespace("other"), "other");
    assertThat(objects().find(ns.id(), new TableName("orders"))).contains(orders);
    assertThat(objects().find(ns.id(), new TableName("ORDERS"))).isEmpty();
    assertThat(objects().find(ns.id(), new TableName("other"))).isEmpty();
  }

  @Test
  void locatingReadsTheLiveNamespaceTheObjectAndItsBucketTogether() {
    Namespace ns = fixture.namespace("Located");
    CatalogObject orders = fixture.table(ns, "orders");
    CatalogObjectStore.Located located = objects().locate(fixture.org.id(),
        new CatalogName("LOCATED"), new TableName("orders")).orElseThrow();
    assertThat(located.namespace()).isEqualTo(ns);
    assertThat(located.object()).contains(orders);
    assertThat(located.bucket()).contains(fixture.bucket);
    // Asked again, a store that now holds the namespace and the bucket in memory answers the same:
    // the bucket with its credentials opened, as read along with the table.
    assertThat(objects().locate(fixture.org.id(), ns.name(), new TableName("orders")))
        .contains(located);

    // A namespace without that object is found alone; a missing or other org's one is not.
    CatalogObjectStore.Located empty = objects().locate(fixture.org.id(), ns.name(),
        new TableName("missing")).orElseThrow();
    assertThat(empty.namespace()).isEqualTo(ns);
    assertThat(empty.object()).isEmpty();
    assertThat(empty.bucket()).isEmpty();
    assertThat(objects().locate(fixture.org.id(), new CatalogName("nope"),
        new TableName("orders"))).isEmpty();
    assertThat(objects().locate(fixture.newOrg().id(), ns.name(), new TableName("orders")))
        .isEmpty();

    ports().namespaceDeletes().markDeleted(ns.id(), fixture.now, fixture.now.plusSeconds(60),
        false, false);
    assertThat(objects().locate(fixture.org.id(), ns.name(), new TableName("orders"))).isEmpty();
  }

  @Test
  void locationsInUseAreFoundSegmentWise() {
    Namespace ns = fixture.namespace("loc");
    fixture.table(ns, "t_1");
    StoragePath location = ns.prefix().resolve("t_1");
    UUID bucket = fixture.bucket.id();
    assertThat(objects().locationInUse(bucket, location)).isTrue();
    assertThat(objects().locationInUse(bucket, location.resolve("data"))).isTrue();
    assertThat(objects().locationInUse(bucket, ns.prefix())).isTrue();
    assertThat(objects().locationInUse(bucket, StoragePath.root())).isTrue();
    assertThat(objects().locationInUse(bucket, ns.prefix().resolve("t_10"))).isFalse();
    assertThat(objects().locationInUse(bucket, ns.prefix().resolve("tX1"))).isFalse();
    assertThat(objects().locationInUse(UUID.randomUUID(), location)).isFalse();
  }

  @Test
  void listingsPageByNamePerKind() {
    Namespace ns = fixture.namespace("pages");
    CatalogObject c = fixture.table(ns, "c");
    CatalogObject a = fixture.table(ns, "a");
    CatalogObject b = fixture.table(ns, "b");
    CatalogObject v = fixture.view(ns, "v");
    fixture.table(fixture.namespace("other"), "a");
    assertThat(objects().list(ns.id(), CatalogObject.Kind.TABLE, Optional.empty(), 2))
        .containsExactly(a, b);
    assertThat(objects().list(ns.id(), CatalogObject.Kind.TABLE, Optional.of("b"), 2))
        .containsExactly(c);
    assertThat(objects().list(ns.id(), CatalogObject.Kind.VIEW, Optional.empty(), 10))
        .containsExactly(v);
  }

  @Test
  void aScopedListingShowsOnlyObjectsGrantedToThePrincipalOrItsTeams() {
    Namespace ns = fixture.namespace("scoped");
    CatalogObject a = fixture.table(ns, "a");
    CatalogObject b = fixture.table(ns, "b");
    CatalogObject c = fixture.table(ns, "c");
    Principal ada = fixture.user("ada");
    Principal crew = fixture.team("crew");
    ports().identities().addTeamMember(crew.id(), ada.id());
    fixture.grant(ada, ns, Optional.of(b), Action.READ);
    fixture.grant(crew, ns, Optional.of(c), Action.READ);
    fixture.grant(ada, ns, Optional.empty(), Action.READ);
    assertThat(objects().list(ns.id(), CatalogObject.Kind.TABLE,
        TableScope.grantedTo(ada.id()), Optional.empty(), 10)).containsExactly(b, c);
    assertThat(objects().list(ns.id(), CatalogObject.Kind.TABLE,
        TableScope.grantedTo(ada.id()), Optional.of("b"), 10)).containsExactly(c);
    assertThat(objects().list(ns.id(), CatalogObject.Kind.TABLE, TableScope.all(),
        Optional.empty(), 10)).containsExactly(a, b, c);
    assertThat(objects().list(ns.id(), CatalogObject.Kind.TABLE,
        TableScope.grantedTo(fixture.user("bob").id()), Optional.empty(), 10)).isEmpty();
  }

  @Test
  void aRenameMovesAnObjectToAnotherNamespaceAndName() {
    Namespace from = fixture.namespace("from");
    Namespace to = fixture.namespace("to");
    CatalogObject t = fixture.table(from, "t");
    objects().rename(t.id(), to.id(), new TableName("u"), fixture.now.plusSeconds(1));
    assertThat(objects().find(fixture.org.id(), from.name(), new TableName("t"))).isEmpty();
    CatalogObject moved = objects().find(fixture.org.id(), to.name(), new TableName("u"))
        .orElseThrow();
    assertThat(moved.id()).isEqualTo(t.id());
    assertThat(moved.location()).isEqualTo(t.location());
    assertThat(moved.updatedAt()).isEqualTo(fixture.now.plusSeconds(1));
  }

  @Test
  void aRenameOntoATakenNameIsRefused() {
    Namespace ns = fixture.namespace("ns");
    CatalogObject t = fixture.table(ns, "t");
    fixture.view(ns, "v");
    assertThatThrownBy(() -> objects().rename(t.id(), ns.id(), new TableName("v"), fixture.now))
        .isInstanceOf(RuntimeException.class);
    assertThat(objects().find(fixture.org.id(), ns.name(), new TableName("t"))).contains(t);
  }

  @Test
  void anObjectIsDeletedOnce() {
    Namespace ns = fixture.namespace("ns");
    CatalogObject t = fixture.table(ns, "t");
    assertThat(objects().delete(t.id())).isTrue();
    assertThat(objects().delete(t.id())).isFalse();
    assertThat(objects().find(fixture.org.id(), ns.name(), new TableName("t"))).isEmpty();
    assertThat(ports().namespaces().hasObjects(ns.id())).isFalse();
  }
}
