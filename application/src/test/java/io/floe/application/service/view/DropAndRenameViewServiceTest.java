package io.floe.application.service.view;

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
import io.floe.domain.StorageLocation;
import io.floe.domain.TableName;
import io.floe.domain.Visibility;
import java.util.List;
import java.util.Optional;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.exceptions.AlreadyExistsException;
import org.apache.iceberg.exceptions.ForbiddenException;
import org.apache.iceberg.exceptions.NoSuchViewException;
import org.apache.iceberg.rest.requests.RenameTableRequest;
import org.apache.iceberg.rest.responses.ListTablesResponse;
import org.junit.jupiter.api.Test;

/**
 * Listing, dropping and renaming views on the fakes: only views are listed and touched, readers
 * may not change them, the audit log keeps each change, a drop is replayed by its key.
 */
class DropAndRenameViewServiceTest {
  private final Testbed bed = new Testbed();
  private final DropViewService drop = new DropViewService(bed.locator(), bed.policy(),
      bed.store.objects(), bed.publisher());
  private final RenameViewService rename = new RenameViewService(bed.locator(),
      new CatalogObjectRenamer(bed.locator(), bed.store.objects(), bed.publisher(), bed.clock,
          bed.policy()));
  private final ListViewsService list = new ListViewsService(bed.locator(), bed.policy(),
      bed.store.objects());
  private final Namespace sales = bed.namespace("sales", Visibility.PRIVATE);
  private final CatalogObject daily = view(sales, "daily");
  private final OrgContext reader = bed.member("reader", Role.MEMBER);

  private CatalogObject view(Namespace namespace, String name) {
    CatalogObject view = new CatalogObject(bed.ids.newId(), namespace.id(), new TableName(name),
        CatalogObject.Kind.VIEW, "s3://data/" + name + "/v1.metadata.json",
        new StorageLocation(bed.bucket.id(), namespace.prefix().resolve(name)), false,
        bed.clock.instant(), bed.clock.instant());
    bed.store.objects().insert(view);
    return view;
  }

  private boolean exists(String name) {
    return bed.store.objects().find(bed.org.id(), sales.name(), new TableName(name)).isPresent();
  }

  private List<AuditEntry> audit() {
    return bed.store.audit().list(bed.org.id(), AuditQuery.all()).entries();
  }

  @Test
  void listingShowsViewsAndNoTables() {
    bed.entry(sales, "orders", "s3://data/orders/v1.json");

    ListTablesResponse views = list.listViews(bed.admin,
        org.apache.iceberg.catalog.Namespace.of("sales"), null, null);

    assertThat(views.identifiers()).containsExactly(TableIdentifier.of("sales", "daily"));
  }

  @Test
  void aWriterDropsAViewOnceAndTheSameRequestIsReplayed() {
    OrgContext keyed = Testbed.withKey(bed.admin, "drop-view", "DELETE /sales/daily");
    drop.dropView(keyed, TableIdentifier.of("sales", "daily"));
    drop.dropView(keyed, TableIdentifier.of("sales", "daily"));

    assertThat(exists("daily")).isFalse();
    assertThat(audit()).singleElement()
        .satisfies(entry -> assertThat(entry.action()).isEqualTo("view.drop"));
    assertThatThrownBy(() -> drop.dropView(bed.admin, TableIdentifier.of("sales", "daily")))
        .isInstanceOf(NoSuchViewException.class);
  }

  @Test
  void aTableIsNoView() {
    bed.entry(sales, "orders", "s3://data/orders/v1.json");

    assertThatThrownBy(() -> drop.dropView(bed.admin, TableIdentifier.of("sales", "orders")))
        .isInstanceOf(NoSuchViewException.class);
    assertThat(exists("orders")).isTrue();
  }

  @Test
  void aReaderMayNeitherDropNorRename() {
    bed.grant(reader.caller().principal().id(), sales, Optional.empty(), Action.READ);

    assertThatThrownBy(() -> drop.dropView(reader, TableIdentifier.of("sales", "daily")))
        .isInstanceOf(ForbiddenException.class);
    assertThatThrownBy(() -> rename.renameView(reader, renaming("daily", "weekly")))
        .isInstanceOf(ForbiddenException.class);
    assertThat(exists("daily")).isTrue();
    assertThat(audit()).isEmpty();
  }

  @Test
  void renameMovesTheViewAndRefusesATakenName() {
    view(sales, "taken");

    assertThatThrownBy(() -> rename.renameView(bed.admin, renaming("daily", "taken")))
        .isInstanceOf(AlreadyExistsException.class);
    rename.renameView(bed.admin, renaming("daily", "weekly"));

    assertThat(exists("daily")).isFalse();
    assertThat(bed.store.objects().find(bed.org.id(), sales.name(), new TableName("weekly"))
        .orElseThrow().id()).isEqualTo(daily.id());
    assertThat(audit()).singleElement()
        .satisfies(entry -> assertThat(entry.action()).isEqualTo("view.rename"));
  }

  private static RenameTableRequest renaming(String from, String to) {
    return RenameTableRequest.builder().withSource(TableIdentifier.of("sales", from))
        .withDestination(TableIdentifier.of("sales", to)).build();
  }
}
