package io.floe.application.port.out.contract;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.floe.application.model.ListingScope;
import io.floe.application.port.out.NamespaceStore;
import io.floe.domain.Action;
import io.floe.domain.CatalogName;
import io.floe.domain.CatalogObject;
import io.floe.domain.Namespace;
import io.floe.domain.Principal;
import io.floe.domain.Visibility;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * {@link NamespaceStore}: one live namespace per name in an org, compared case-insensitively;
 * only live namespaces are found and listed, in keyset pages by name, optionally only those in a
 * caller's scope; property updates apply removals, then updates, in one step.
 */
public abstract class NamespaceStoreContract extends PortContract {
  private NamespaceStore namespaces() {
    return ports().namespaces();
  }

  @Test
  void keysetPagesCoverEveryNamespaceOnceInOrder() {
    for (int i = 0; i < 25; i++) {
      fixture.namespace(String.format("ns-%02d", i));
    }
    List<String> seen = new ArrayList<>();
    Optional<String> after = Optional.empty();
    while (true) {
      List<Namespace> page = namespaces().listLive(fixture.org.id(), after, 10);
      page.forEach(ns -> seen.add(ns.name().value()));
      if (page.size() < 10) {
        break;
      }
      after = Optional.of(page.get(page.size() - 1).name().value());
    }
    assertThat(seen).hasSize(25).isSorted().doesNotHaveDuplicates();
  }

  @Test
  void propertyUpdatesApplyRemovalsThenUpdatesInOneStatement() {
    Namespace ns = fixture.namespace("props");
    namespaces().updateProperties(ns.id(), Set.of(), Map.of("a", "1", "b", "2"), fixture.now);
    Namespace updated = namespaces().updateProperties(ns.id(), Set.of("a", "missing"),
        Map.of("c", "3"), fixture.now.plusSeconds(1));
    assertThat(updated.properties()).containsExactlyInAnyOrderEntriesOf(Map.of("b", "2", "c", "3"));
    assertThat(updated.updatedAt()).isEqualTo(fixture.now.plusSeconds(1));
    assertThat(namespaces().findLive(fixture.org.id(), ns.name())).contains(updated);
  }

  @Test
  void softDeletedNamespacesAreNoLongerFoundByName() {
    Namespace ns = fixture.namespace("gone");
    ports().namespaceDeletes().markDeleted(ns.id(), fixture.now, fixture.now.plusSeconds(60),
        false, false);
    assertThat(namespaces().findLive(fixture.org.id(), new CatalogName("gone"))).isEmpty();
    assertThat(namespaces().listLive(fixture.org.id(), Optional.empty(), 10)).isEmpty();
  }

  @Test
  void aNamespaceIsFoundByItsNameInAnyCaseInItsOrgOnly() {
    Namespace ns = fixture.namespace("Sales");
    assertThat(namespaces().findLive(fixture.org.id(), new CatalogName("sALES"))).contains(ns);
    assertThat(namespaces().findLive(fixture.newOrg().id(), new CatalogName("Sales"))).isEmpty();
  }

  @Test
  void aLiveNameIsTakenOnceWhateverItsCase() {
    Namespace first = fixture.namespace("Obs");
    assertThatThrownBy(() -> fixture.namespace("OBS")).isInstanceOf(RuntimeException.class);
    ports().namespaceDeletes().markDeleted(first.id(), fixture.now, fixture.now, false, true);
    Namespace second = fixture.namespace("obs");
    assertThat(namespaces().findLive(fixture.org.id(), new CatalogName("OBS"))).contains(second);
  }

  @Test
  void aScopedListingShowsPublicNamespacesAndThoseWithAGrantInThem() {
    Principal ada = fixture.user("ada");
    Principal crew = fixture.team("crew");
    ports().identities().addTeamMember(crew.id(), ada.id());
    Namespace open = fixture.namespace("a-open", Visibility.AUTHENTICATED_PUBLIC);
    Namespace granted = fixture.namespace("b-granted");
    Namespace tableGranted = fixture.namespace("c-table-granted");
    Namespace teamGranted = fixture.namespace("d-team-granted");
    Namespace hidden = fixture.namespace("e-hidden");
    fixture.table(hidden, "t");
    CatalogObject t = fixture.table(tableGranted, "t");
    fixture.grant(ada, granted, Optional.empty(), Action.READ);
    fixture.grant(ada, tableGranted, Optional.of(t), Action.READ);
    fixture.grant(crew, teamGranted, Optional.empty(), Action.READ);

    ListingScope adas = new ListingScope(false, Set.of(Visibility.AUTHENTICATED_PUBLIC),
        Optional.of(ada.id()));
    assertThat(namespaces().listLive(fixture.org.id(), adas, Optional.empty(), 10))
        .containsExactly(open, granted, tableGranted, teamGranted);
    assertThat(namespaces().listLive(fixture.org.id(), adas, Optional.of("b-granted"), 2))
        .containsExactly(tableGranted, teamGranted);
    assertThat(namespaces().listLive(fixture.org.id(), ListingScope.all(), Optional.empty(), 10))
        .containsExactly(open, granted, tableGranted, teamGranted, hidden);
    assertThat(namespaces().listLive(fixture.org.id(), new ListingScope(false, Set.of()),
        Optional.empty(), 10)).isEmpty();
  }

  @Test
  void aNamespaceHasObjectsWhileATableOrViewIsInIt() {
    Namespace ns = fixture.namespace("ns");
    assertThat(namespaces().hasObjects(ns.id())).isFalse();
    CatalogObject view = fixture.view(ns, "v");
    assertThat(namespaces().hasObjects(ns.id())).isTrue();
    ports().objects().delete(view.id());
    assertThat(namespaces().hasObjects(ns.id())).isFalse();
  }
}
