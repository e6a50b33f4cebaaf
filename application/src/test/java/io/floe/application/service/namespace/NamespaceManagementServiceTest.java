package io.floe.application.service.namespace;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.floe.application.model.AuditEntry;
import io.floe.application.model.CreateNamespaceCommand;
import io.floe.application.model.DeleteCommand;
import io.floe.application.model.ListingSort;
import io.floe.application.model.ModifyNamespaceCommand;
import io.floe.application.model.NamespaceDetails;
import io.floe.application.model.PageRequest;
import io.floe.application.model.SortDirection;
import io.floe.application.model.TableQuery;
import io.floe.application.model.TableSummary;
import io.floe.application.security.OrgContext;
import io.floe.application.testbed.Testbed;
import io.floe.domain.Action;
import io.floe.domain.CatalogName;
import io.floe.domain.CatalogObject;
import io.floe.domain.MetadataValue;
import io.floe.domain.Namespace;
import io.floe.domain.Role;
import io.floe.domain.Visibility;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.apache.iceberg.exceptions.ForbiddenException;
import org.apache.iceberg.exceptions.NoSuchNamespaceException;
import org.apache.iceberg.exceptions.UnprocessableEntityException;
import org.junit.jupiter.api.Test;

/**
 * The management API's namespaces on the fakes: what a namespace's details say to whom (its
 * bucket, its table count, the caller's actions), who may see and change its description,
 * metadata and visibility, what the audit log keeps of a change (which fields, never the texts),
 * the tables a caller sees in it, and a delete that can be undone until the recovery period ends
 * on the clock, but not after an immediate one.
 */
class NamespaceManagementServiceTest {
  private final Testbed bed = new Testbed();
  private final NamespaceManagementService management = new NamespaceManagementService(
      Namespaces.creation(bed), Namespaces.deletion(bed), bed.store.namespaceDirectory(),
      bed.store.namespaceLifecycle(), bed.store.unitOfWork(), bed.clock, bed.policy(),
      bed.publisher());
  private final OrgContext member = bed.member("member", Role.MEMBER);
  private final OrgContext writer = bed.member("writer", Role.MEMBER);
  private final CatalogName sales = new CatalogName("sales");

  private NamespaceDetails create(String name, Visibility visibility) {
    return management.create(bed.admin, new CreateNamespaceCommand(new CatalogName(name),
        Optional.empty(), Optional.of("The " + name + " team's tables"),
        Map.of("owner", new MetadataValue.Text("ops")), Map.of(), visibility));
  }

  private static ModifyNamespaceCommand describing(String description) {
    return new ModifyNamespaceCommand(Optional.of(description), Map.of(), Map.of(), Set.of(),
        Optional.empty());
  }

  private List<AuditEntry> audit() {
    return bed.auditLog();
  }

  private static TableQuery allTables() {
    return new TableQuery(Optional.empty(), ListingSort.NAME, SortDirection.ASC,
        new PageRequest(1, 50));
  }

  @Test
  void aCreatedNamespaceIsDescribedWithItsBucketTablesAndTheCallersActions() {
    NamespaceDetails created = create("sales", Visibility.PRIVATE);

    assertThat(created.org()).isEqualTo("acme");
    assertThat(created.namespace().name()).isEqualTo(sales);
    assertThat(created.namespace().description()).contains("The sales team's tables");
    assertThat(created.namespace().metadata())
        .containsEntry("owner", new MetadataValue.Text("ops"));
    assertThat(created.bucketNickname()).isEqualTo("main");
    assertThat(created.tableCount()).isZero();
    assertThat(created.effectiveActions()).containsExactlyInAnyOrder(Action.values());
    assertThat(audit()).singleElement()
        .satisfies(entry -> assertThat(entry.action()).isEqualTo("namespace.create"));
    assertThatThrownBy(() -> management.create(member, new CreateNamespaceCommand(
        new CatalogName("hr"), Optional.empty(), Optional.empty(), Map.of(), Map.of(),
        Visibility.PRIVATE))).isInstanceOf(ForbiddenException.class);
  }

  @Test
  void aMemberSeesAPublicNamespaceAsAReaderAndAPrivateOneNotAtAll() {
    create("sales", Visibility.AUTHENTICATED_PUBLIC);
    create("hr", Visibility.PRIVATE);

    NamespaceDetails seen = management.get(member, sales);

    assertThat(seen.effectiveActions()).containsExactly(Action.READ);
    assertThatThrownBy(() -> management.get(member, new CatalogName("hr")))
        .isInstanceOf(NoSuchNamespaceException.class);
    assertThat(management.list(member, false)).extracting(details -> details.namespace().name())
        .containsExactly(sales);
    assertThat(management.list(bed.admin, false)).hasSize(2);
  }

  @Test
  void anAdminChangesTheDescriptionMetadataAndVisibilityAndTheAuditLogNamesOnlyTheFields() {
    create("sales", Visibility.PRIVATE);

    NamespaceDetails modified = management.modify(bed.admin, sales, new ModifyNamespaceCommand(
        Optional.of("Only orders now"), Map.of("tier", new MetadataValue.Text("gold")),
        Map.of("owner", new MetadataValue.Text("finance")), Set.of(),
        Optional.of(Visibility.AUTHENTICATED_PUBLIC)));

    assertThat(modified.namespace().description()).contains("Only orders now");
    assertThat(modified.namespace().metadata()).isEqualTo(Map.of(
        "tier", new MetadataValue.Text("gold"), "owner", new MetadataValue.Text("finance")));
    assertThat(modified.namespace().visibility()).isEqualTo(Visibility.AUTHENTICATED_PUBLIC);
    assertThat(management.get(member, sales).namespace().description())
        .contains("Only orders now");
    AuditEntry changed = audit().get(audit().size() - 1);
    assertThat(changed.action()).isEqualTo("namespace.update");
    assertThat(changed.details()).containsEntry("description", "changed");
    assertThat(changed.details().get("metadata_keys").toString())
        .contains("tier").contains("owner");
    assertThat(changed.details().toString()).doesNotContain("Only orders now")
        .doesNotContain("finance");
  }

  @Test
  void anEmptyDescriptionClearsItAndAnAddedKeyThatExistsIsRefused() {
    create("sales", Visibility.PRIVATE);

    NamespaceDetails cleared = management.modify(bed.admin, sales, describing(""));

    assertThat(cleared.namespace().description()).isEmpty();
    assertThat(audit().get(audit().size() - 1).details()).containsEntry("description", "cleared");
    int entries = audit().size();
    assertThatThrownBy(() -> management.modify(bed.admin, sales, new ModifyNamespaceCommand(
        Optional.empty(), Map.of("owner", new MetadataValue.Text("x")), Map.of(), Set.of(),
        Optional.empty()))).isInstanceOf(UnprocessableEntityException.class);
    assertThat(management.get(bed.admin, sales).namespace().metadata())
        .containsEntry("owner", new MetadataValue.Text("ops"));
    assertThat(audit()).hasSize(entries);
  }

  @Test
  void aWriterMayNotChangeTheDescriptionAndAStrangerIsToldThereIsNoSuchNamespace() {
    Namespace created = create("sales", Visibility.PRIVATE).namespace();
    bed.grant(writer.caller().principal().id(), created, Optional.empty(), Action.WRITE);

    assertThatThrownBy(() -> management.modify(writer, sales, describing("mine")))
        .isInstanceOf(ForbiddenException.class);
    assertThatThrownBy(() -> management.modify(member, sales, describing("mine")))
        .isInstanceOf(NoSuchNamespaceException.class);
    assertThat(management.get(bed.admin, sales).namespace().description())
        .contains("The sales team's tables");
    assertThat(audit()).hasSize(1);
  }

  @Test
  void aCallerWithAGrantOnOneTableSeesTheNamespaceWithThatTableOnly() {
    Namespace created = create("sales", Visibility.PRIVATE).namespace();
    CatalogObject orders = bed.table(created, "orders");
    bed.table(created, "items");
    bed.grant(member.caller().principal().id(), created, Optional.of(orders), Action.READ);

    assertThat(management.tables(bed.admin, sales, allTables()).items()).hasSize(2);
    List<TableSummary> seen = management.tables(member, sales, allTables()).items();

    assertThat(seen).singleElement().satisfies(summary -> {
      assertThat(summary.table().name().value()).isEqualTo("orders");
      assertThat(summary.effectiveActions()).containsExactly(Action.READ);
    });
    assertThat(management.get(member, sales).effectiveActions()).isEmpty();
    assertThat(management.get(bed.admin, sales).tableCount()).isEqualTo(2);
  }

  @Test
  void aDeletedNamespaceIsAGhostUntilRestoredWithinTheRecoveryPeriod() {
    create("sales", Visibility.PRIVATE);

    management.delete(bed.admin, sales, DeleteCommand.SOFT);

    assertThatThrownBy(() -> management.get(bed.admin, sales))
        .isInstanceOf(NoSuchNamespaceException.class);
    assertThat(management.list(bed.admin, false)).isEmpty();
    assertThat(management.list(bed.admin, true)).singleElement()
        .satisfies(ghost -> assertThat(ghost.namespace().isDeleted()).isTrue());
    bed.clock.advance(Namespaces.RECOVERY.minus(Duration.ofMinutes(1)));
    NamespaceDetails restored = management.restore(bed.admin, sales);

    assertThat(restored.namespace().isDeleted()).isFalse();
    assertThat(management.get(bed.admin, sales).namespace().name()).isEqualTo(sales);
    assertThat(bed.nameIsHeld("sales")).isTrue();
    assertThat(audit()).extracting(AuditEntry::action)
        .containsExactly("namespace.create", "namespace.delete", "namespace.restore");
  }

  @Test
  void onceTheRecoveryPeriodHasPassedOrAfterAnImmediateDeleteNothingCanBeRestored() {
    create("sales", Visibility.PRIVATE);
    create("hr", Visibility.PRIVATE);
    management.delete(bed.admin, sales, DeleteCommand.SOFT);
    management.delete(bed.admin, new CatalogName("hr"), new DeleteCommand(true, false));

    assertThatThrownBy(() -> management.restore(bed.admin, new CatalogName("hr")))
        .isInstanceOf(NoSuchNamespaceException.class);
    assertThat(bed.nameIsHeld("hr")).isFalse();
    bed.clock.advance(Namespaces.RECOVERY.plus(Duration.ofMinutes(1)));
    assertThatThrownBy(() -> management.restore(bed.admin, sales))
        .isInstanceOf(NoSuchNamespaceException.class);
    assertThat(audit()).extracting(AuditEntry::action).doesNotContain("namespace.restore");
  }

  @Test
  void onlyThoseWhoManageANamespaceDeleteItAndOthersDoNotSeeIt() {
    Namespace created = create("sales", Visibility.PRIVATE).namespace();
    bed.grant(writer.caller().principal().id(), created, Optional.empty(), Action.WRITE);

    assertThatThrownBy(() -> management.delete(writer, sales, DeleteCommand.SOFT))
        .isInstanceOf(ForbiddenException.class);
    assertThatThrownBy(() -> management.delete(member, sales, DeleteCommand.SOFT))
        .isInstanceOf(NoSuchNamespaceException.class);
    assertThat(management.get(bed.admin, sales).namespace().isDeleted()).isFalse();
  }
}
