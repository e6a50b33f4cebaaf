package io.floe.application.service.table;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.floe.application.model.AuditEntry;
import io.floe.application.model.AuditQuery;
import io.floe.application.security.OrgContext;
import io.floe.application.service.catalog.CatalogObjectRenamer;
import io.floe.application.testbed.Testbed;
import io.floe.domain.Action;
import io.floe.domain.CatalogObject;
import io.floe.domain.Namespace;
import io.floe.domain.Role;
import io.floe.domain.TableName;
import io.floe.domain.Visibility;
import java.util.List;
import java.util.Optional;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.exceptions.AlreadyExistsException;
import org.apache.iceberg.exceptions.ForbiddenException;
import org.apache.iceberg.exceptions.NoSuchTableException;
import org.apache.iceberg.rest.requests.RenameTableRequest;
import org.junit.jupiter.api.Test;

/**
 * Dropping and renaming a table on the fakes: who may, what a caller that may not see the table
 * is told, what the audit log keeps, and a dropped table's request replayed.
 */
class DropAndRenameTableServiceTest {
  private final Testbed bed = new Testbed();
  private final DropTableService drop = new DropTableService(bed.locator(), bed.policy(),
      bed.store.objects(), bed.publisher());
  private final RenameTableService rename = new RenameTableService(bed.locator(),
      new CatalogObjectRenamer(bed.locator(), bed.store.objects(), bed.publisher(), bed.clock,
          bed.policy()));
  private final Namespace sales = bed.namespace("sales", Visibility.PRIVATE);
  private final CatalogObject orders = bed.entry(sales, "orders", "s3://data/orders/v1.json");
  private final OrgContext reader = bed.member("reader", Role.MEMBER);
  private final OrgContext stranger = bed.member("stranger", Role.MEMBER);
  private final TableIdentifier ordersId = TableIdentifier.of("sales", "orders");

  private boolean exists(String name) {
    return bed.store.objects().find(bed.org.id(), sales.name(), new TableName(name)).isPresent();
  }

  private List<AuditEntry> audit() {
    return bed.store.audit().list(bed.org.id(), AuditQuery.all()).entries();
  }

  private static RenameTableRequest renaming(String from, String to) {
    return RenameTableRequest.builder().withSource(TableIdentifier.of("sales", from))
        .withDestination(TableIdentifier.of("sales", to)).build();
  }

  @Test
  void aWriterDropsTheTableAndTheAuditLogSaysWhoAndWhetherPurgeWasAsked() {
    drop.dropTable(bed.admin, ordersId, true);

    assertThat(exists("orders")).isFalse();
    assertThat(audit()).singleElement().satisfies(entry -> {
      assertThat(entry.action()).isEqualTo("table.drop");
      assertThat(entry.principalName()).isEqualTo("admin");
      assertThat(entry.targetName()).isEqualTo("sales.orders");
      assertThat(entry.details()).containsEntry("purge_requested", true);
    });
  }

  @Test
  void aReaderMayNotDropAndNothingIsWritten() {
    bed.grant(reader.caller().principal().id(), sales, Optional.empty(), Action.READ);

    assertThatThrownBy(() -> drop.dropTable(reader, ordersId, false))
        .isInstanceOf(ForbiddenException.class);
    assertThat(exists("orders")).isTrue();
    assertThat(audit()).isEmpty();
  }

  @Test
  void aTableTheCallerCannotSeeDoesNotExistForIt() {
    assertThatThrownBy(() -> drop.dropTable(stranger, ordersId, false))
        .isInstanceOf(NoSuchTableException.class);
    assertThatThrownBy(() -> drop.dropTable(bed.admin, TableIdentifier.of("sales", "missing"),
        false)).isInstanceOf(NoSuchTableException.class);
    assertThat(exists("orders")).isTrue();
  }

  @Test
  void theSameDropSentAgainWithItsKeyIsReplayedAndAnotherIsNot() {
    OrgContext keyed = Testbed.withKey(bed.admin, "drop-1", "DELETE /sales/orders");
    drop.dropTable(keyed, ordersId, false);

    drop.dropTable(keyed, ordersId, false);
    assertThat(audit()).hasSize(1);
    OrgContext other = Testbed.withKey(bed.admin, "drop-2", "DELETE /sales/orders");
    assertThatThrownBy(() -> drop.dropTable(other, ordersId, false))
        .isInstanceOf(NoSuchTableException.class);
  }

  @Test
  void renameMovesTheEntryKeepsItsPointerAndIsAudited() {
    rename.renameTable(bed.admin, renaming("orders", "purchases"));

    assertThat(exists("orders")).isFalse();
    assertThat(bed.store.objects().find(bed.org.id(), sales.name(), new TableName("purchases"))
        .orElseThrow().metadataLocation()).isEqualTo("s3://data/orders/v1.json");
    assertThat(audit()).singleElement()
        .satisfies(entry -> assertThat(entry.action()).isEqualTo("table.rename"));
  }

  @Test
  void renameRefusesATakenNameAMissingSourceAndAReader() {
    bed.entry(sales, "taken", "s3://data/taken/v1.json");
    bed.grant(reader.caller().principal().id(), sales, Optional.empty(), Action.READ);

    assertThatThrownBy(() -> rename.renameTable(bed.admin, renaming("orders", "taken")))
        .isInstanceOf(AlreadyExistsException.class);
    assertThatThrownBy(() -> rename.renameTable(bed.admin, renaming("missing", "other")))
        .isInstanceOf(NoSuchTableException.class);
    assertThatThrownBy(() -> rename.renameTable(reader, renaming("orders", "mine")))
        .isInstanceOf(ForbiddenException.class);
    assertThat(exists("orders")).isTrue();
    assertThat(exists("mine")).isFalse();
    assertThat(audit()).isEmpty();
  }
}
