package io.floe.application.security;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.floe.application.model.ListingScope;
import io.floe.application.model.TableScope;
import io.floe.application.testbed.Testbed;
import io.floe.domain.Action;
import io.floe.domain.CatalogObject;
import io.floe.domain.Membership;
import io.floe.domain.Namespace;
import io.floe.domain.Org;
import io.floe.domain.OrgName;
import io.floe.domain.Principal;
import io.floe.domain.Role;
import io.floe.domain.Visibility;
import java.util.EnumSet;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import org.apache.iceberg.exceptions.ForbiddenException;
import org.junit.jupiter.api.Test;

/**
 * The access decisions: admins may do everything in their org; every member reads public
 * namespaces; anything else needs a grant, on the namespace or on that very table, held directly
 * or through a team. A table grant makes its namespace visible, showing only that table.
 */
class AccessPolicyTest {
  private final Testbed bed = new Testbed();
  private final AccessPolicy policy = bed.policy();
  private final OrgContext ada = bed.member("ada", Role.MEMBER);
  private final Namespace sales = bed.namespace("sales", Visibility.PRIVATE);
  private final Namespace open = bed.namespace("open", Visibility.AUTHENTICATED_PUBLIC);
  private final CatalogObject orders = bed.entry(sales, "orders", "v0");
  private final CatalogObject refunds = bed.entry(sales, "refunds", "v0");

  private UUID adaId() {
    return ada.caller().principal().id();
  }

  private Set<Action> on(Namespace namespace) {
    return policy.effectiveActions(ada, namespace);
  }

  private Set<Action> on(Namespace namespace, CatalogObject table) {
    return policy.effectiveActions(ada, namespace, table);
  }

  @Test
  void anAdminMayDoEverythingInItsOrg() {
    assertThat(policy.effectiveActions(bed.admin, sales)).isEqualTo(EnumSet.allOf(Action.class));
    assertThat(policy.effectiveActions(bed.admin, sales, orders))
        .isEqualTo(EnumSet.allOf(Action.class));
    assertThat(policy.canSee(bed.admin, sales)).isTrue();
    assertThat(policy.listingScope(bed.admin)).isEqualTo(ListingScope.all());
    assertThatCode(() -> policy.requireAdmin(bed.admin, "add principals"))
        .doesNotThrowAnyException();
  }

  @Test
  void aMemberWithoutGrantsSeesOnlyPublicNamespacesAndOnlyReadsThem() {
    assertThat(policy.canSee(ada, sales)).isFalse();
    assertThat(policy.canSee(ada, sales, orders)).isFalse();
    assertThat(on(sales)).isEmpty();
    assertThat(policy.canSee(ada, open)).isTrue();
    assertThat(on(open)).containsExactly(Action.READ);
    assertThatThrownBy(() -> policy.require(ada, Action.WRITE, open))
        .isInstanceOf(ForbiddenException.class).hasMessageContaining("write");
    assertThatThrownBy(() -> policy.requireAdmin(ada, "add principals"))
        .isInstanceOf(ForbiddenException.class).hasMessageContaining("add principals");
  }

  @Test
  void aNamespaceGrantCoversTheNamespaceAndEveryTableInIt() {
    bed.grant(adaId(), sales, Optional.empty(), Action.WRITE);
    assertThat(on(sales)).containsExactlyInAnyOrder(Action.READ, Action.WRITE);
    assertThat(on(sales, orders)).containsExactlyInAnyOrder(Action.READ, Action.WRITE);
    assertThat(on(sales, refunds)).containsExactlyInAnyOrder(Action.READ, Action.WRITE);
    assertThat(policy.tableScope(ada, sales)).isEqualTo(TableScope.all());
    assertThatThrownBy(() -> policy.require(ada, Action.MANAGE, sales))
        .isInstanceOf(ForbiddenException.class);
  }

  @Test
  void aTableGrantShowsItsNamespaceButOnlyThatTable() {
    bed.grant(adaId(), sales, Optional.of(orders), Action.WRITE);
    assertThat(policy.canSee(ada, sales)).isTrue();
    assertThat(on(sales)).isEmpty();
    assertThat(policy.canSee(ada, sales, orders)).isTrue();
    assertThat(on(sales, orders)).containsExactlyInAnyOrder(Action.READ, Action.WRITE);
    assertThat(policy.canSee(ada, sales, refunds)).isFalse();
    assertThat(policy.tableScope(ada, sales)).isEqualTo(TableScope.grantedTo(adaId()));
    assertThatCode(() -> policy.require(ada, Action.WRITE, sales, orders))
        .doesNotThrowAnyException();
    assertThatThrownBy(() -> policy.require(ada, Action.WRITE, sales))
        .isInstanceOf(ForbiddenException.class);
  }

  @Test
  void aTeamsGrantsReachItsUsersOnly() {
    Principal crew = bed.team("crew");
    bed.grant(crew.id(), sales, Optional.empty(), Action.READ);
    assertThat(policy.canSee(ada, sales)).isFalse();
    bed.store.identities().addTeamMember(crew.id(), adaId());
    assertThat(on(sales)).containsExactly(Action.READ);
    OrgContext bob = bed.member("bob", Role.MEMBER);
    assertThat(policy.canSee(bob, sales)).isFalse();
  }

  @Test
  void aPublicNamespaceWithAGrantAllowsWhatTheGrantAdds() {
    bed.grant(adaId(), open, Optional.empty(), Action.MANAGE);
    assertThat(on(open)).isEqualTo(EnumSet.allOf(Action.class));
  }

  @Test
  void noGrantReachesANamespaceOfAnotherOrg() {
    bed.grant(adaId(), sales, Optional.empty(), Action.MANAGE);
    Org elsewhere = new Org(UUID.randomUUID(), new OrgName("elsewhere"), true);
    OrgContext adaElsewhere = new OrgContext(ada.caller(), elsewhere,
        new Membership(elsewhere.id(), adaId(), Role.MEMBER));
    assertThat(policy.canSee(adaElsewhere, sales)).isFalse();
    assertThat(policy.effectiveActions(adaElsewhere, sales)).isEmpty();
  }

  @Test
  void aMembersListingScopeIsPublicNamespacesAndItsGrants() {
    assertThat(policy.listingScope(ada)).isEqualTo(new ListingScope(false,
        Set.of(Visibility.AUTHENTICATED_PUBLIC), Optional.of(adaId())));
    // The store applies the scope as canSee decides, namespace by namespace.
    bed.grant(adaId(), sales, Optional.of(orders), Action.READ);
    assertThat(bed.store.namespaces().listLive(bed.org.id(), policy.listingScope(ada),
        Optional.empty(), 10)).allMatch(namespace -> policy.canSee(ada, namespace))
        .containsExactlyInAnyOrder(sales, open);
  }

  @Test
  void operatorsAreAdminsOfTheBootstrapOrg() {
    OrgName bootstrap = bed.org.name();
    assertThat(policy.isOperator(Optional.of(bed.admin), bootstrap)).isTrue();
    assertThat(policy.isOperator(Optional.of(ada), bootstrap)).isFalse();
    assertThat(policy.isOperator(Optional.empty(), bootstrap)).isFalse();
    assertThat(policy.isOperator(Optional.of(bed.admin), new OrgName("other"))).isFalse();
    assertThatThrownBy(() -> policy.requireOperator(Optional.of(ada), bootstrap, "create orgs"))
        .isInstanceOf(ForbiddenException.class);
  }
}
