package io.floe.application.service.table;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.floe.application.model.AccessDelegation;
import io.floe.application.port.in.table.LoadTableUseCase.LoadedTable;
import io.floe.application.port.out.CredentialVendor.Access;
import io.floe.application.port.out.MetadataPointers;
import io.floe.application.security.OrgContext;
import io.floe.application.testbed.RecordingStorageAccess;
import io.floe.application.testbed.Testbed;
import io.floe.domain.Action;
import io.floe.domain.CatalogObject;
import io.floe.domain.Namespace;
import io.floe.domain.Role;
import io.floe.domain.Visibility;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.apache.iceberg.TableMetadata;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.exceptions.NoSuchTableException;
import org.apache.iceberg.rest.RESTCatalogProperties.SnapshotMode;
import org.junit.jupiter.api.Test;

/**
 * Loading tables on the fakes: the metadata the pointer names now, who sees a table (a grant on
 * one table shows that table and no neighbour; what a caller cannot see is "no such table", never
 * a 403), views and nested names are no tables, and the storage access an engine gets: read-only
 * for readers, read-write for writers, remote signing where the bucket takes signed requests.
 */
class LoadTableServiceTest {
  private final Testbed bed = new Testbed();
  private final RecordingStorageAccess vending = new RecordingStorageAccess(bed.clock, true, false);
  private final RecordingStorageAccess signing = new RecordingStorageAccess(bed.clock, false, true);
  private final LoadTableService load = service(vending);
  private final Namespace sales = bed.namespace("sales", Visibility.PRIVATE);
  private final CatalogObject orders = bed.table(sales, "orders");
  private final CatalogObject items = bed.table(sales, "items");
  private final OrgContext reader = bed.member("reader", Role.MEMBER);
  private final OrgContext writer = bed.member("writer", Role.MEMBER);
  private final OrgContext stranger = bed.member("stranger", Role.MEMBER);

  LoadTableServiceTest() {
    bed.grant(reader.caller().principal().id(), sales, Optional.empty(), Action.READ);
    bed.grant(writer.caller().principal().id(), sales, Optional.empty(), Action.WRITE);
  }

  private LoadTableService service(RecordingStorageAccess access) {
    return new LoadTableService(bed.locator(), bed.policy(), bed.files,
        bed.storageAccess(access, access));
  }

  private static TableIdentifier id(String name) {
    return TableIdentifier.of("sales", name);
  }

  private LoadedTable loaded(OrgContext context, String name, AccessDelegation... delegation) {
    return load.loadTable(context, id(name), SnapshotMode.ALL, Set.of(delegation));
  }

  @Test
  void aReaderLoadsTheMetadataThePointerNamesAndFollowsThePointerWhenItMoves() {
    LoadedTable first = loaded(reader, "orders");

    assertThat(first.metadataLocation()).isEqualTo(orders.metadataLocation());
    assertThat(first.response().tableMetadata().schema().sameSchema(Testbed.SCHEMA)).isTrue();
    assertThat(first.metadataJson().length()).isPositive();
    assertThat(first.credentials()).isEmpty();

    TableMetadata base = bed.current(sales, orders);
    TableMetadata next = bed.files.writeTable(bed.bucket, TableMetadata.buildFrom(base)
        .setProperties(Map.of("owner", "ops")).build(), Optional.of(base.metadataFileLocation()));
    assertThat(bed.store.pointers().swap(List.of(MetadataPointers.Move.of(
        new MetadataPointers.Row(orders.id()), base.metadataFileLocation(),
        next.metadataFileLocation())), bed.clock.instant())).isTrue();

    LoadedTable second = loaded(reader, "orders");
    assertThat(second.metadataLocation()).isEqualTo(next.metadataFileLocation());
    assertThat(second.response().tableMetadata().properties()).containsEntry("owner", "ops");
    assertThat(load.currentMetadataLocation(reader, id("orders")))
        .isEqualTo(next.metadataFileLocation());
  }

  @Test
  void aCallerWithoutAGrantIsToldTheTableDoesNotExist() {
    assertThatThrownBy(() -> loaded(stranger, "orders"))
        .isInstanceOf(NoSuchTableException.class);
    assertThatThrownBy(() -> load.currentMetadataLocation(stranger, id("orders")))
        .isInstanceOf(NoSuchTableException.class);
    assertThatThrownBy(() -> loaded(bed.admin, "missing"))
        .isInstanceOf(NoSuchTableException.class);
    assertThatThrownBy(() -> load.loadTable(bed.admin, TableIdentifier.of("nowhere", "orders"),
        SnapshotMode.ALL, Set.of())).isInstanceOf(NoSuchTableException.class);
    assertThat(vending.grants()).isEmpty();
  }

  @Test
  void aGrantOnOneTableShowsThatTableAndNoNeighbour() {
    OrgContext analyst = bed.member("analyst", Role.MEMBER);
    bed.grant(analyst.caller().principal().id(), sales, Optional.of(orders), Action.READ);

    assertThat(loaded(analyst, "orders").metadataLocation()).isEqualTo(orders.metadataLocation());
    assertThatThrownBy(() -> loaded(analyst, "items")).isInstanceOf(NoSuchTableException.class);
    assertThat(items).isNotNull();
  }

  @Test
  void aViewAndANestedNameAreNoTables() {
    bed.view(sales, "daily");

    assertThatThrownBy(() -> loaded(bed.admin, "daily")).isInstanceOf(NoSuchTableException.class);
    assertThatThrownBy(() -> load.loadTable(bed.admin, TableIdentifier.of("sales", "orders",
        "files"), SnapshotMode.ALL, Set.of())).isInstanceOf(NoSuchTableException.class);
  }

  @Test
  void aReaderIsVendedReadOnlyAndAWriterReadWriteCredentialsForTheTableOnly() {
    LoadedTable read = loaded(reader, "orders", AccessDelegation.VENDED_CREDENTIALS);
    LoadedTable written = loaded(writer, "orders", AccessDelegation.VENDED_CREDENTIALS);

    String root = bed.bucket.uriOf(orders.location().path());
    assertThat(read.credentials()).singleElement().satisfies(credential -> {
      assertThat(credential.prefix()).isEqualTo(root);
      assertThat(credential.config()).containsEntry(RecordingStorageAccess.ACCESS,
          Access.READ_ONLY.name());
    });
    assertThat(read.config()).containsEntry(RecordingStorageAccess.ACCESS,
        Access.READ_ONLY.name());
    assertThat(written.credentials()).singleElement().satisfies(credential -> assertThat(
        credential.config()).containsEntry(RecordingStorageAccess.ACCESS,
        Access.READ_WRITE.name()));
    assertThat(vending.grants()).extracting(RecordingStorageAccess.Grant::requester)
        .containsExactly("reader", "writer");
    assertThat(vending.grants()).allSatisfy(grant ->
        assertThat(grant.location()).isEqualTo(orders.location().path()));
  }

  @Test
  void whereTheBucketCannotVendAnEngineThatAsksIsToldToHaveItsRequestsSigned() {
    LoadTableService signed = service(signing);

    LoadedTable table = signed.loadTable(reader, id("orders"), SnapshotMode.ALL,
        Set.of(AccessDelegation.VENDED_CREDENTIALS, AccessDelegation.REMOTE_SIGNING));
    LoadedTable unasked = signed.loadTable(reader, id("orders"), SnapshotMode.ALL, Set.of());

    assertThat(table.credentials()).isEmpty();
    assertThat(table.config()).containsKey(RecordingStorageAccess.SIGNER_ENDPOINT);
    assertThat(table.config().get(RecordingStorageAccess.SIGNER_ENDPOINT))
        .contains("acme").contains("orders");
    assertThat(unasked.config()).isEmpty();
  }
}
