package io.floe.application.service.view;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.floe.application.model.AuditEntry;
import io.floe.application.security.OrgContext;
import io.floe.application.testbed.Testbed;
import io.floe.domain.Action;
import io.floe.domain.CatalogObject;
import io.floe.domain.Namespace;
import io.floe.domain.Role;
import io.floe.domain.TableName;
import io.floe.domain.Visibility;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.iceberg.MetadataUpdate;
import org.apache.iceberg.UpdateRequirement;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.exceptions.AlreadyExistsException;
import org.apache.iceberg.exceptions.BadRequestException;
import org.apache.iceberg.exceptions.CommitFailedException;
import org.apache.iceberg.exceptions.ForbiddenException;
import org.apache.iceberg.exceptions.NoSuchNamespaceException;
import org.apache.iceberg.exceptions.NoSuchViewException;
import org.apache.iceberg.rest.requests.CreateViewRequest;
import org.apache.iceberg.rest.requests.ImmutableCreateViewRequest;
import org.apache.iceberg.rest.requests.ImmutableRegisterViewRequest;
import org.apache.iceberg.rest.requests.UpdateTableRequest;
import org.apache.iceberg.rest.responses.LoadViewResponse;
import org.apache.iceberg.view.SQLViewRepresentation;
import org.apache.iceberg.view.ViewMetadata;
import org.junit.jupiter.api.Test;

/**
 * Creating, loading, replacing and registering views on the fakes, each on real view metadata:
 * the server places a new view under the namespace's prefix whatever location the client asks
 * for; a replace checks the client's requirements on the current version, moves the pointer to a
 * new file and ignores a request to move the view; readers load but may not change; a caller
 * without a grant sees no view (and no namespace); a table is no view; registration adopts only
 * metadata inside the namespace; every change is audited and a keyed request replayed.
 */
class ViewServicesTest {
  private final Testbed bed = new Testbed();
  private final CreateViewService create = new CreateViewService(bed.locator(), bed.policy(),
      bed.placement(), bed.files, bed.entries(), bed.publisher(), bed.ids);
  private final LoadViewService load = new LoadViewService(bed.locator(), bed.policy(),
      bed.files);
  private final ReplaceViewService replace = new ReplaceViewService(bed.locator(), bed.policy(),
      bed.files, bed.committer(), bed.publisher());
  private final RegisterViewService register = new RegisterViewService(bed.locator(),
      bed.policy(), bed.files, bed.entries(), bed.publisher(), bed.ids);
  private final Namespace sales = bed.namespace("sales", Visibility.PRIVATE);
  private final Namespace hr = bed.namespace("hr", Visibility.PRIVATE);
  private final CatalogObject daily = bed.view(sales, "daily");
  private final OrgContext reader = bed.member("reader", Role.MEMBER);
  private final OrgContext stranger = bed.member("stranger", Role.MEMBER);

  private static final org.apache.iceberg.catalog.Namespace SALES =
      org.apache.iceberg.catalog.Namespace.of("sales");
  private static final TableIdentifier DAILY = TableIdentifier.of("sales", "daily");

  ViewServicesTest() {
    bed.grant(reader.caller().principal().id(), sales, Optional.empty(), Action.READ);
  }

  private CreateViewRequest creating(String name, String sql) {
    return ImmutableCreateViewRequest.builder().name(name).schema(Testbed.SCHEMA)
        .viewVersion(bed.viewVersion(1, sales, sql)).putProperties("comment", "made here")
        .build();
  }

  private Optional<CatalogObject> entry(String name) {
    return bed.store.objects().find(bed.org.id(), sales.name(), new TableName(name));
  }

  private List<AuditEntry> audit() {
    return bed.auditLog();
  }

  private static String sql(ViewMetadata metadata) {
    return ((SQLViewRepresentation) metadata.currentVersion().representations().get(0)).sql();
  }

  private UpdateTableRequest replacing(String sql, UpdateRequirement... requirements) {
    ViewMetadata current = load.loadView(bed.admin, DAILY).metadata();
    return UpdateTableRequest.create(DAILY, List.of(requirements), List.of(
        new MetadataUpdate.AddViewVersion(bed.viewVersion(current.currentVersionId() + 1, sales,
            sql)),
        new MetadataUpdate.SetCurrentViewVersion(-1)));
  }

  @Test
  void aWriterCreatesAViewUnderTheNamespacePrefixAndTheAuditLogKeepsIt() {
    LoadViewResponse created = create.createView(bed.admin, SALES,
        creating("weekly", "select * from orders"));

    assertThat(created.metadata().location())
        .startsWith(bed.bucket.uriOf(sales.prefix()) + "/weekly-");
    assertThat(created.metadataLocation()).startsWith(created.metadata().location() + "/metadata/");
    assertThat(bed.metadataIo.exists(created.metadataLocation())).isTrue();
    assertThat(created.metadata().properties()).containsEntry("comment", "made here");
    assertThat(sql(created.metadata())).isEqualTo("select * from orders");
    CatalogObject entry = entry("weekly").orElseThrow();
    assertThat(entry.kind()).isEqualTo(CatalogObject.Kind.VIEW);
    assertThat(entry.metadataLocation()).isEqualTo(created.metadataLocation());
    assertThat(audit()).singleElement().satisfies(audited -> {
      assertThat(audited.action()).isEqualTo("view.create");
      assertThat(audited.targetKind()).isEqualTo("view");
      assertThat(audited.targetName()).isEqualTo("sales.weekly");
    });
    assertThat(load.loadView(reader, TableIdentifier.of("sales", "weekly")).metadataLocation())
        .isEqualTo(created.metadataLocation());
  }

  @Test
  void creatingWhereATableOrAViewHasTheNameIsAConflict() {
    bed.table(sales, "orders");

    assertThatThrownBy(() -> create.createView(bed.admin, SALES, creating("daily", "select 2")))
        .isInstanceOf(AlreadyExistsException.class).hasMessageContaining("View already exists");
    assertThatThrownBy(() -> create.createView(bed.admin, SALES, creating("orders", "select 2")))
        .isInstanceOf(AlreadyExistsException.class)
        .hasMessageContaining("Table with same name already exists");
    assertThat(audit()).isEmpty();
  }

  @Test
  void aReaderMayNotCreateAndAStrangerDoesNotSeeTheNamespace() {
    int written = bed.metadataIo.written().size();

    assertThatThrownBy(() -> create.createView(reader, SALES, creating("weekly", "select 2")))
        .isInstanceOf(ForbiddenException.class);
    assertThatThrownBy(() -> create.createView(stranger, SALES, creating("weekly", "select 2")))
        .isInstanceOf(NoSuchNamespaceException.class);
    assertThat(entry("weekly")).isEmpty();
    assertThat(bed.metadataIo.written()).hasSize(written);
  }

  @Test
  void theSameCreateSentAgainWithItsKeyIsReplayed() {
    OrgContext keyed = Testbed.withKey(bed.admin, "view-1", "POST sales/views weekly");
    LoadViewResponse first = create.createView(keyed, SALES, creating("weekly", "select 2"));

    LoadViewResponse again = create.createView(keyed, SALES, creating("weekly", "select 2"));

    assertThat(again.metadataLocation()).isEqualTo(first.metadataLocation());
    assertThat(audit()).hasSize(1);
  }

  @Test
  void loadingShowsAViewToItsReadersOnlyAndATableIsNoView() {
    bed.table(sales, "orders");

    LoadViewResponse loaded = load.loadView(reader, DAILY);

    assertThat(loaded.metadataLocation()).isEqualTo(daily.metadataLocation());
    assertThat(sql(loaded.metadata())).isEqualTo("select 1");
    assertThatThrownBy(() -> load.loadView(stranger, DAILY))
        .isInstanceOf(NoSuchViewException.class);
    assertThatThrownBy(() -> load.loadView(bed.admin, TableIdentifier.of("sales", "orders")))
        .isInstanceOf(NoSuchViewException.class);
    assertThatThrownBy(() -> load.loadView(bed.admin, TableIdentifier.of("nowhere", "daily")))
        .isInstanceOf(NoSuchViewException.class);
  }

  @Test
  void aGrantOnOneViewShowsThatViewOnly() {
    CatalogObject weekly = bed.view(sales, "weekly");
    OrgContext analyst = bed.member("analyst", Role.MEMBER);
    bed.grant(analyst.caller().principal().id(), sales, Optional.of(weekly), Action.READ);

    assertThat(load.loadView(analyst, TableIdentifier.of("sales", "weekly")).metadataLocation())
        .isEqualTo(weekly.metadataLocation());
    assertThatThrownBy(() -> load.loadView(analyst, DAILY))
        .isInstanceOf(NoSuchViewException.class);
  }

  @Test
  void aReplaceWritesTheNextVersionMovesThePointerAndIsAuditedWithItsUpdates() {
    ViewMetadata before = load.loadView(bed.admin, DAILY).metadata();

    LoadViewResponse replaced = replace.replaceView(bed.admin, DAILY,
        replacing("select 2", new UpdateRequirement.AssertViewUUID(before.uuid())));

    assertThat(sql(replaced.metadata())).isEqualTo("select 2");
    assertThat(replaced.metadataLocation()).isNotEqualTo(daily.metadataLocation())
        .contains("/metadata/00001-");
    assertThat(entry("daily").orElseThrow().metadataLocation())
        .isEqualTo(replaced.metadataLocation());
    assertThat(sql(load.loadView(reader, DAILY).metadata())).isEqualTo("select 2");
    assertThat(audit()).singleElement().satisfies(audited -> {
      assertThat(audited.action()).isEqualTo("view.replace");
      assertThat(audited.details())
          .containsEntry("previous_metadata_location", daily.metadataLocation())
          .containsEntry("metadata_location", replaced.metadataLocation())
          .containsEntry("updates", List.of("add-view-version", "set-current-view-version"));
    });
  }

  @Test
  void aFailedRequirementIsAConflictThatMovesNothing() {
    String other = "00000000-0000-0000-0000-000000000001";

    assertThatThrownBy(() -> replace.replaceView(bed.admin, DAILY,
        replacing("select 2", new UpdateRequirement.AssertViewUUID(other))))
        .isInstanceOf(CommitFailedException.class);
    assertThat(entry("daily").orElseThrow().metadataLocation())
        .isEqualTo(daily.metadataLocation());
    assertThat(audit()).isEmpty();
  }

  @Test
  void aRequestToMoveTheViewIsIgnoredAndAReplaceThatChangesNothingWritesNothing() {
    int written = bed.metadataIo.written().size();

    LoadViewResponse unchanged = replace.replaceView(bed.admin, DAILY, UpdateTableRequest.create(
        DAILY, List.of(), List.of(new MetadataUpdate.SetLocation("s3://data/elsewhere"))));

    assertThat(unchanged.metadataLocation()).isEqualTo(daily.metadataLocation());
    assertThat(unchanged.metadata().location())
        .isEqualTo(bed.bucket.uriOf(sales.prefix().resolve("daily")));
    assertThat(bed.metadataIo.written()).hasSize(written);
    assertThat(audit()).isEmpty();
  }

  @Test
  void aReaderMayNotReplaceAndAStrangerIsToldThereIsNoSuchView() {
    UpdateTableRequest request = replacing("select 2");

    assertThatThrownBy(() -> replace.replaceView(reader, DAILY, request))
        .isInstanceOf(ForbiddenException.class);
    assertThatThrownBy(() -> replace.replaceView(stranger, DAILY, request))
        .isInstanceOf(NoSuchViewException.class);
    assertThat(entry("daily").orElseThrow().metadataLocation())
        .isEqualTo(daily.metadataLocation());
  }

  @Test
  void theSameReplaceSentAgainWithItsKeyIsReplayedNotAppliedTwice() {
    OrgContext keyed = Testbed.withKey(bed.admin, "replace-1", "POST sales/views/daily");
    UpdateTableRequest request = replacing("select 2");

    LoadViewResponse first = replace.replaceView(keyed, DAILY, request);
    LoadViewResponse again = replace.replaceView(keyed, DAILY, request);

    assertThat(again.metadataLocation()).isEqualTo(first.metadataLocation());
    assertThat(entry("daily").orElseThrow().metadataLocation())
        .isEqualTo(first.metadataLocation());
    assertThat(audit()).hasSize(1);
  }

  @Test
  void registeringAViewWhereAnotherTableOrViewLivesIsAConflict() {
    ImmutableRegisterViewRequest twin = ImmutableRegisterViewRequest.builder().name("twin")
        .metadataLocation(daily.metadataLocation()).build();

    assertThatThrownBy(() -> register.registerView(bed.admin, SALES, twin))
        .isInstanceOf(AlreadyExistsException.class).hasMessageContaining("already used");
    assertThat(entry("twin")).isEmpty();
    assertThat(audit()).isEmpty();
  }

  @Test
  void registrationAdoptsAViewFileOfTheNamespaceOnly() {
    ViewMetadata legacy = load.loadView(bed.admin, DAILY).metadata();
    bed.store.objects().delete(daily.id());
    CatalogObject theirs = bed.view(hr, "headcount");

    LoadViewResponse registered = register.registerView(bed.admin, SALES,
        ImmutableRegisterViewRequest.builder().name("again")
            .metadataLocation(daily.metadataLocation()).build());

    assertThat(registered.metadata().uuid()).isEqualTo(legacy.uuid());
    CatalogObject entry = entry("again").orElseThrow();
    assertThat(entry.kind()).isEqualTo(CatalogObject.Kind.VIEW);
    assertThat(entry.metadataLocation()).isEqualTo(daily.metadataLocation());
    assertThat(entry.location().path()).isEqualTo(sales.prefix().resolve("daily"));
    assertThat(audit()).singleElement()
        .satisfies(audited -> assertThat(audited.action()).isEqualTo("view.register"));
    assertThatThrownBy(() -> register.registerView(bed.admin, SALES,
        ImmutableRegisterViewRequest.builder().name("theirs")
            .metadataLocation(theirs.metadataLocation()).build()))
        .isInstanceOf(ForbiddenException.class);
    assertThatThrownBy(() -> register.registerView(bed.admin, SALES,
        ImmutableRegisterViewRequest.builder().name("ghost").metadataLocation(
            bed.bucket.uriOf(sales.prefix().resolve("ghost/metadata/00000-x.metadata.json")))
            .build()))
        .isInstanceOf(BadRequestException.class);
    assertThat(entry("theirs")).isEmpty();
    assertThat(entry("ghost")).isEmpty();
  }

  @Test
  void registrationRefusesATakenNameAReaderAndAStranger() {
    bed.table(sales, "orders");
    String location = daily.metadataLocation();

    assertThatThrownBy(() -> register.registerView(bed.admin, SALES,
        ImmutableRegisterViewRequest.builder().name("orders").metadataLocation(location).build()))
        .isInstanceOf(AlreadyExistsException.class);
    assertThatThrownBy(() -> register.registerView(reader, SALES,
        ImmutableRegisterViewRequest.builder().name("mine").metadataLocation(location).build()))
        .isInstanceOf(ForbiddenException.class);
    assertThatThrownBy(() -> register.registerView(stranger, SALES,
        ImmutableRegisterViewRequest.builder().name("mine").metadataLocation(location).build()))
        .isInstanceOf(NoSuchNamespaceException.class);
    assertThat(entry("mine")).isEmpty();
    assertThat(audit()).isEmpty();
  }

  @Test
  void aViewsPropertiesChangeThroughAReplace() {
    LoadViewResponse replaced = replace.replaceView(bed.admin, DAILY, UpdateTableRequest.create(
        DAILY, List.of(), List.of(new MetadataUpdate.SetProperties(Map.of("owner", "ops")))));

    assertThat(replaced.metadata().properties()).containsEntry("owner", "ops");
    assertThat(load.loadView(reader, DAILY).metadata().properties())
        .containsEntry("owner", "ops");
  }
}
