package io.floe.application.service.events;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.floe.application.model.AuditAction;
import io.floe.application.model.AuditTarget;
import io.floe.application.model.AuditedChange;
import io.floe.application.model.ChangeEvent;
import io.floe.application.model.ChangeEventPage;
import io.floe.application.model.ChangeEventsExpiredException;
import io.floe.application.model.ChangeFilter;
import io.floe.application.model.FeedPosition;
import io.floe.application.security.OrgContext;
import io.floe.application.service.catalog.CatalogChanges;
import io.floe.application.service.change.ChangePublisher;
import io.floe.application.testbed.Testbed;
import io.floe.domain.Action;
import io.floe.domain.CatalogObject;
import io.floe.domain.Namespace;
import io.floe.domain.Role;
import io.floe.domain.Visibility;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.exceptions.BadRequestException;
import org.junit.jupiter.api.Test;

/**
 * The feed as readers take it: committed changes in order, none that rolled back, only what the
 * reader may read, a page at a time from where the last one ended, filtered, and refused past
 * retention.
 */
class ReadChangeEventsServiceTest {
  private static final Duration RETENTION = Duration.ofDays(7);
  private final Testbed bed = new Testbed();
  private final ChangePublisher publisher = bed.publisher();
  private final ReadChangeEventsService events = new ReadChangeEventsService(
      bed.store.changeFeed(), new EventVisibility(bed.store.namespaces(), bed.policy()),
      bed.clock, RETENTION);
  private final Namespace sales = bed.namespace("sales", Visibility.PRIVATE);
  private final Namespace hr = bed.namespace("hr", Visibility.PRIVATE);

  private void commit(String namespace, String table) {
    publisher.publish(bed.admin, CatalogChanges.of(AuditAction.TABLE_COMMIT,
        CatalogObject.Kind.TABLE, TableIdentifier.of(namespace, table)), () -> {});
  }

  private List<String> targets(ChangeEventPage page) {
    return page.events().stream().map(event -> event.entry().targetName()).toList();
  }

  private ChangeEventPage all(OrgContext reader) {
    return events.read(reader, FeedPosition.START, ChangeFilter.ALL, 100);
  }

  @Test
  void committedChangesComeInOrderAndOneThatRolledBackNever() {
    commit("sales", "orders");
    assertThatThrownBy(() -> publisher.publish(bed.admin, CatalogChanges.of(
        AuditAction.TABLE_COMMIT, CatalogObject.Kind.TABLE, TableIdentifier.of("sales", "lost")),
        () -> {
          throw new IllegalStateException("the write failed");
        })).isInstanceOf(IllegalStateException.class);
    commit("hr", "people");

    ChangeEventPage page = all(bed.admin);
    assertThat(targets(page)).containsExactly("sales.orders", "hr.people");
    ChangeEvent first = page.events().get(0);
    assertThat(first.entry().principalId()).isEqualTo(bed.admin.caller().principal().id());
    assertThat(first.namespace()).contains("sales");
    assertThat(page.next()).isEqualTo(new FeedPosition(page.events().get(1).position()
        .transaction(), page.events().get(1).position().sequence(), bed.clock.instant()));
  }

  @Test
  void aReaderSeesOnlyTheEventsOfNamespacesItMayRead() {
    OrgContext analyst = bed.member("analyst", Role.MEMBER);
    bed.grant(analyst.caller().principal().id(), sales, Optional.empty(), Action.READ);
    OrgContext stranger = bed.member("stranger", Role.MEMBER);
    commit("sales", "orders");
    commit("hr", "people");
    // A grant names its namespace as its target, but it is access control: admins only.
    publisher.publish(bed.admin, AuditedChange.of(AuditAction.GRANT_CREATE,
        AuditTarget.Kind.NAMESPACE, "sales"), () -> {});

    assertThat(targets(all(analyst))).containsExactly("sales.orders");
    assertThat(all(stranger).events()).isEmpty();
    assertThat(targets(all(bed.admin)))
        .containsExactly("sales.orders", "hr.people", "sales");
  }

  @Test
  void eachPageStartsWhereTheLastEnded() {
    for (int i = 0; i < 5; i++) {
      commit("sales", "t" + i);
    }
    ChangeEventPage first = events.read(bed.admin, FeedPosition.START, ChangeFilter.ALL, 2);
    ChangeEventPage second = events.read(bed.admin, first.next(), ChangeFilter.ALL, 2);
    ChangeEventPage third = events.read(bed.admin, second.next(), ChangeFilter.ALL, 2);
    ChangeEventPage caughtUp = events.read(bed.admin, third.next(), ChangeFilter.ALL, 2);
    assertThat(targets(first)).containsExactly("sales.t0", "sales.t1");
    assertThat(targets(second)).containsExactly("sales.t2", "sales.t3");
    assertThat(targets(third)).containsExactly("sales.t4");
    assertThat(caughtUp.events()).isEmpty();
    commit("sales", "t5");
    assertThat(targets(events.read(bed.admin, caughtUp.next(), ChangeFilter.ALL, 2)))
        .containsExactly("sales.t5");
  }

  @Test
  void filtersByNamespaceObjectAndAction() {
    commit("sales", "orders");
    commit("hr", "people");
    publisher.publish(bed.admin, CatalogChanges.of(AuditAction.TABLE_DROP,
        CatalogObject.Kind.TABLE, TableIdentifier.of("sales", "orders")), () -> {});
    ChangeFilter salesCommits = new ChangeFilter(Set.of("table.commit"), Set.of(),
        Set.of("SALES"), Set.of(), Optional.empty());
    assertThat(targets(events.read(bed.admin, FeedPosition.START, salesCommits, 10)))
        .containsExactly("sales.orders");
    ChangeFilter people = new ChangeFilter(Set.of(), Set.of(), Set.of(), Set.of("hr.people"),
        Optional.empty());
    assertThat(targets(events.read(bed.admin, FeedPosition.START, people, 10)))
        .containsExactly("hr.people");
  }

  @Test
  void aPositionOlderThanTheRetentionIsGoneButOneKeptUpToDateIsNot() {
    commit("sales", "orders");
    ChangeEventPage page = all(bed.admin);
    FeedPosition seen = page.events().get(0).position();
    bed.clock.advance(RETENTION.plusMinutes(1));
    assertThatThrownBy(() -> events.read(bed.admin, seen, ChangeFilter.ALL, 10))
        .isInstanceOf(ChangeEventsExpiredException.class);
    // The page's own position was fresh when it was answered: the reader missed nothing.
    ChangeEventPage later = events.read(bed.admin, all(bed.admin).next(), ChangeFilter.ALL, 10);
    assertThat(later.events()).isEmpty();
  }

  @Test
  void aPageSizeOutsideItsBoundsIsRefused() {
    assertThatThrownBy(() -> events.read(bed.admin, FeedPosition.START, ChangeFilter.ALL, 0))
        .isInstanceOf(BadRequestException.class);
    assertThatThrownBy(() -> events.read(bed.admin, FeedPosition.START, ChangeFilter.ALL, 1001))
        .isInstanceOf(BadRequestException.class);
  }

  @Test
  void eventsBelongToTheNamespaceNotItsNameARecreatedOneStartsWithAnEmptyHistory() {
    commit("sales", "orders");
    publisher.publish(bed.admin, AuditedChange.of(AuditAction.NAMESPACE_DELETE,
        AuditTarget.Kind.NAMESPACE, "sales"), () -> bed.store.namespaceDeletes().markDeleted(
            sales.id(), bed.clock.instant(), bed.clock.instant(), false, true));
    Namespace again = bed.namespace("sales", Visibility.PRIVATE);
    OrgContext analyst = bed.member("analyst", Role.MEMBER);
    bed.grant(analyst.caller().principal().id(), again, Optional.empty(), Action.READ);

    assertThat(all(analyst).events()).as("the old sales' history").isEmpty();
    ChangeFilter followingSales = new ChangeFilter(Set.of(), Set.of(), Set.of("sales"),
        Set.of(), Optional.empty());
    assertThat(events.read(bed.admin, FeedPosition.START, followingSales, 100).events())
        .as("a filter follows the namespace living under the name").isEmpty();
    assertThat(targets(all(bed.admin))).as("admins see everything")
        .containsExactly("sales.orders", "sales");

    commit("sales", "orders");
    assertThat(all(analyst).events()).singleElement()
        .satisfies(event -> assertThat(event.namespaceId()).contains(again.id()));
    assertThat(events.read(analyst, FeedPosition.START, followingSales, 100).events())
        .hasSize(1);
  }
}
