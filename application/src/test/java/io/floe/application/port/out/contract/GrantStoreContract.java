package io.floe.application.port.out.contract;

import static org.assertj.core.api.Assertions.assertThat;

import io.floe.application.port.out.GrantStore;
import io.floe.application.port.out.GrantStore.Entry;
import io.floe.application.port.out.GrantStore.Named;
import io.floe.domain.Action;
import io.floe.domain.CatalogObject;
import io.floe.domain.Grant;
import io.floe.domain.Namespace;
import io.floe.domain.Principal;
import io.floe.domain.TableName;
import java.time.Instant;
import java.util.Optional;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * {@link GrantStore}: a principal holds its own grants and its teams'; a table grant follows its
 * table (its current namespace, its current name) and goes when the table goes; granting again
 * changes the action of the one grant on that target.
 */
public abstract class GrantStoreContract extends PortContract {
  private GrantStore grants() {
    return ports().grants();
  }

  private Named grant(Principal to, Namespace namespace, Optional<CatalogObject> table,
      Action action, Instant at) {
    return fixture.grant(to, namespace, table, action, at);
  }

  @Test
  void aNamespaceGrantIsHeldWithinThatNamespaceOnly() {
    Principal ada = fixture.user("ada");
    Namespace sales = fixture.namespace("sales");
    Namespace hr = fixture.namespace("hr");
    Named named = grant(ada, sales, Optional.empty(), Action.READ, fixture.now);
    assertThat(named.principalName()).isEqualTo("ada");
    assertThat(named.namespaceName()).isEqualTo("sales");
    assertThat(named.tableName()).isEmpty();
    assertThat(grants().heldWithin(ada.id(), sales.id()))
        .containsExactly(new Grant(ada.id(), sales.id(), Optional.empty(), Action.READ));
    assertThat(grants().heldWithin(ada.id(), hr.id())).isEmpty();
    assertThat(grants().heldWithin(fixture.user("bob").id(), sales.id())).isEmpty();
  }

  @Test
  void aTeamsGrantsAreHeldByItsMembersWhileTheyAreMembers() {
    Principal crew = fixture.team("crew");
    Principal ada = fixture.user("ada");
    Namespace sales = fixture.namespace("sales");
    grant(crew, sales, Optional.empty(), Action.WRITE, fixture.now);
    assertThat(grants().heldWithin(ada.id(), sales.id())).isEmpty();
    ports().identities().addTeamMember(crew.id(), ada.id());
    assertThat(grants().heldWithin(ada.id(), sales.id()))
        .containsExactly(new Grant(crew.id(), sales.id(), Optional.empty(), Action.WRITE));
    ports().identities().removeTeamMember(crew.id(), ada.id());
    assertThat(grants().heldWithin(ada.id(), sales.id())).isEmpty();
  }

  @Test
  void aTableGrantFollowsItsTable() {
    Principal ada = fixture.user("ada");
    Namespace sales = fixture.namespace("sales");
    Namespace archive = fixture.namespace("archive");
    CatalogObject orders = fixture.table(sales, "orders");
    Named named = grant(ada, sales, Optional.of(orders), Action.READ, fixture.now);
    assertThat(named.tableName()).contains("orders");
    assertThat(grants().heldWithin(ada.id(), sales.id())).containsExactly(
        new Grant(ada.id(), sales.id(), Optional.of(orders.id()), Action.READ));

    ports().objects().rename(orders.id(), archive.id(), new TableName("old-orders"),
        fixture.now);

    assertThat(grants().heldWithin(ada.id(), sales.id())).isEmpty();
    assertThat(grants().heldWithin(ada.id(), archive.id())).containsExactly(
        new Grant(ada.id(), archive.id(), Optional.of(orders.id()), Action.READ));
    Named moved = grants().find(fixture.org.id(), named.entry().id()).orElseThrow();
    assertThat(moved.namespaceName()).isEqualTo("archive");
    assertThat(moved.tableName()).contains("old-orders");
    assertThat(grants().list(fixture.org.id(), Optional.of(archive.id()), Optional.empty()))
        .containsExactly(moved);
  }

  @Test
  void aTableGrantGoesWithItsTable() {
    Principal ada = fixture.user("ada");
    Namespace sales = fixture.namespace("sales");
    CatalogObject orders = fixture.table(sales, "orders");
    Named named = grant(ada, sales, Optional.of(orders), Action.WRITE, fixture.now);
    ports().objects().delete(orders.id());
    assertThat(grants().find(fixture.org.id(), named.entry().id())).isEmpty();
    assertThat(grants().heldWithin(ada.id(), sales.id())).isEmpty();
  }

  @Test
  void grantsOnANamespaceGoWhenItIsPurged() {
    Principal ada = fixture.user("ada");
    Namespace gone = fixture.namespace("gone");
    Named named = grant(ada, gone, Optional.empty(), Action.MANAGE, fixture.now);
    ports().namespaceDeletes().markDeleted(gone.id(), fixture.now, fixture.now, false, true);
    ports().namespaceDeletes().purge(gone.id());
    assertThat(grants().find(fixture.org.id(), named.entry().id())).isEmpty();
  }

  @Test
  void grantingAgainChangesTheActionOfTheOneGrant() {
    Principal ada = fixture.user("ada");
    Namespace sales = fixture.namespace("sales");
    CatalogObject orders = fixture.table(sales, "orders");
    Named first = grant(ada, sales, Optional.empty(), Action.READ, fixture.now);
    Named onTable = grant(ada, sales, Optional.of(orders), Action.READ, fixture.now);
    Named again = grant(ada, sales, Optional.empty(), Action.MANAGE, fixture.now.plusSeconds(5));

    assertThat(again.entry().id()).isEqualTo(first.entry().id());
    assertThat(again.entry().createdAt()).isEqualTo(first.entry().createdAt());
    assertThat(again.entry().grant().action()).isEqualTo(Action.MANAGE);
    assertThat(grants().list(fixture.org.id(), Optional.empty(), Optional.of(ada.id())))
        .extracting(named -> named.entry().id())
        .containsExactlyInAnyOrder(first.entry().id(), onTable.entry().id());
  }

  @Test
  void listingsComeInCreationOrderFilteredByNamespaceAndPrincipal() {
    Principal ada = fixture.user("ada");
    Principal bob = fixture.user("bob");
    Namespace sales = fixture.namespace("sales");
    Namespace hr = fixture.namespace("hr");
    CatalogObject orders = fixture.table(sales, "orders");
    Named third = grant(ada, hr, Optional.empty(), Action.READ, fixture.now.plusSeconds(3));
    Named first = grant(bob, sales, Optional.empty(), Action.READ, fixture.now.plusSeconds(1));
    Named second = grant(ada, sales, Optional.of(orders), Action.WRITE,
        fixture.now.plusSeconds(2));
    Namespace elsewhere = fixture.namespace("elsewhere");
    grants().save(new Entry(UUID.randomUUID(), fixture.newOrg().id(),
        new Grant(ada.id(), elsewhere.id(), Optional.empty(), Action.READ), fixture.now));

    assertThat(grants().list(fixture.org.id(), Optional.empty(), Optional.empty()))
        .containsExactly(first, second, third);
    assertThat(grants().list(fixture.org.id(), Optional.of(sales.id()), Optional.empty()))
        .containsExactly(first, second);
    assertThat(grants().list(fixture.org.id(), Optional.empty(), Optional.of(ada.id())))
        .containsExactly(second, third);
    assertThat(grants().list(fixture.org.id(), Optional.of(sales.id()), Optional.of(ada.id())))
        .containsExactly(second);
  }

  @Test
  void aGrantIsFoundInItsOrgAndDeletedOnce() {
    Named named = grant(fixture.user("ada"), fixture.namespace("sales"), Optional.empty(),
        Action.READ, fixture.now);
    assertThat(grants().find(fixture.org.id(), named.entry().id())).contains(named);
    assertThat(grants().find(fixture.newOrg().id(), named.entry().id())).isEmpty();
    assertThat(grants().delete(named.entry().id())).isTrue();
    assertThat(grants().delete(named.entry().id())).isFalse();
    assertThat(grants().find(fixture.org.id(), named.entry().id())).isEmpty();
  }
}
