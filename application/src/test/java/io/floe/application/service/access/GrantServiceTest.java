package io.floe.application.service.access;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.floe.application.model.GrantCommand;
import io.floe.application.model.GrantDetails;
import io.floe.application.security.OrgContext;
import io.floe.application.testbed.Testbed;
import io.floe.domain.Action;
import io.floe.domain.CatalogObject;
import io.floe.domain.Namespace;
import io.floe.domain.Role;
import io.floe.domain.TableName;
import io.floe.domain.Visibility;
import java.util.Optional;
import java.util.UUID;
import org.apache.iceberg.exceptions.ForbiddenException;
import org.apache.iceberg.exceptions.NoSuchNamespaceException;
import org.apache.iceberg.exceptions.NoSuchTableException;
import org.apache.iceberg.exceptions.NotFoundException;
import org.junit.jupiter.api.Test;

/**
 * Grants: whoever may manage a namespace grants on it and revokes, to members of the org only;
 * everyone sees the grants made to them; what a caller cannot see does not exist for it.
 */
class GrantServiceTest {
  private final Testbed bed = new Testbed();
  private final GrantService grants = new GrantService(bed.store.grants(), bed.store.namespaces(),
      bed.store.objects(), new OrgMembers(bed.store.identities()), bed.policy(), bed.ids,
      bed.clock, bed.publisher());
  private final OrgContext ada = bed.member("ada", Role.MEMBER);
  private final OrgContext bob = bed.member("bob", Role.MEMBER);
  private final Namespace sales = bed.namespace("sales", Visibility.PRIVATE);
  private final CatalogObject orders = bed.entry(sales, "orders", "v0");

  private UUID id(OrgContext context) {
    return context.caller().principal().id();
  }

  private GrantDetails grant(OrgContext by, OrgContext to, Optional<String> table,
      Action action) {
    return grants.grant(by, new GrantCommand(id(to), sales.name(), table.map(TableName::new),
        action));
  }

  @Test
  void anAdminGrantsOnANamespaceAndOnOneTable() {
    GrantDetails onNamespace = grant(bed.admin, ada, Optional.empty(), Action.READ);
    GrantDetails onTable = grant(bed.admin, bob, Optional.of("orders"), Action.WRITE);
    assertThat(onNamespace.namespace()).isEqualTo("sales");
    assertThat(onTable.table()).contains("orders");
    assertThat(bed.store.grants().heldWithin(id(bob), sales.id()))
        .singleElement().satisfies(held -> assertThat(held.tableId()).contains(orders.id()));
  }

  @Test
  void grantingRequiresManagingTheNamespaceAndSeeingIt() {
    assertThatThrownBy(() -> grant(ada, bob, Optional.empty(), Action.READ))
        .isInstanceOf(NoSuchNamespaceException.class);
    grant(bed.admin, ada, Optional.empty(), Action.WRITE);
    assertThatThrownBy(() -> grant(ada, bob, Optional.empty(), Action.READ))
        .isInstanceOf(ForbiddenException.class);
    grant(bed.admin, ada, Optional.empty(), Action.MANAGE);
    assertThat(grant(ada, bob, Optional.empty(), Action.READ).principalName()).isEqualTo("bob");
  }

  @Test
  void onlyMembersAndExistingTablesCanBeGranted() {
    assertThatThrownBy(() -> grants.grant(bed.admin, new GrantCommand(UUID.randomUUID(),
        sales.name(), Optional.empty(), Action.READ))).isInstanceOf(NotFoundException.class);
    assertThatThrownBy(() -> grant(bed.admin, ada, Optional.of("missing"), Action.READ))
        .isInstanceOf(NoSuchTableException.class);
  }

  @Test
  void everyoneSeesTheirOwnGrantsAndManagersSeeTheirNamespaces() {
    GrantDetails adas = grant(bed.admin, ada, Optional.of("orders"), Action.READ);
    GrantDetails bobs = grant(bed.admin, bob, Optional.empty(), Action.MANAGE);
    assertThat(grants.grants(ada, Optional.empty(), Optional.empty())).containsExactly(adas);
    assertThat(grants.grants(bob, Optional.empty(), Optional.empty()))
        .containsExactly(adas, bobs);
    assertThat(grants.grants(bed.admin, Optional.of(sales.name()), Optional.of(id(ada))))
        .containsExactly(adas);
    assertThatThrownBy(() -> grants.grants(ada, Optional.of(sales.name()), Optional.empty()))
        .isInstanceOf(ForbiddenException.class);
  }

  @Test
  void onlyAManagerRevokesAndAnyoneElseIsToldThereIsNoSuchGrant() {
    GrantDetails adas = grant(bed.admin, ada, Optional.empty(), Action.WRITE);
    assertThatThrownBy(() -> grants.revokeGrant(ada, adas.id()))
        .isInstanceOf(NotFoundException.class);
    grant(bed.admin, bob, Optional.empty(), Action.MANAGE);
    grants.revokeGrant(bob, adas.id());
    assertThat(bed.store.grants().heldWithin(id(ada), sales.id())).isEmpty();
    assertThatThrownBy(() -> grants.revokeGrant(bed.admin, adas.id()))
        .isInstanceOf(NotFoundException.class);
  }
}
