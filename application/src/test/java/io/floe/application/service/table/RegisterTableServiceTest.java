package io.floe.application.service.table;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.floe.application.model.AuditEntry;
import io.floe.application.security.OrgContext;
import io.floe.application.testbed.Testbed;
import io.floe.domain.Action;
import io.floe.domain.CatalogObject;
import io.floe.domain.Namespace;
import io.floe.domain.Role;
import io.floe.domain.StoragePath;
import io.floe.domain.TableName;
import io.floe.domain.Visibility;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.SortOrder;
import org.apache.iceberg.TableMetadata;
import org.apache.iceberg.exceptions.AlreadyExistsException;
import org.apache.iceberg.exceptions.BadRequestException;
import org.apache.iceberg.exceptions.ForbiddenException;
import org.apache.iceberg.exceptions.NoSuchNamespaceException;
import org.apache.iceberg.rest.requests.ImmutableRegisterTableRequest;
import org.apache.iceberg.rest.requests.RegisterTableRequest;
import org.apache.iceberg.rest.responses.LoadTableResponse;
import org.junit.jupiter.api.Test;

/**
 * Registering tables on the fakes: only metadata inside the namespace's own prefix, describing a
 * table that lies there too, is adopted; a missing file and one of another namespace are refused
 * alike or as outside; a name or a location already in use is a conflict; {@code overwrite} moves
 * an existing table's pointer to a newer file of its own, audited as such; readers may not
 * register, strangers do not see the namespace; a keyed request is replayed.
 */
class RegisterTableServiceTest {
  private final Testbed bed = new Testbed();
  private final RegisterTableService register = new RegisterTableService(bed.locator(),
      bed.policy(), bed.files, bed.entries(), bed.committer(), bed.publisher(), bed.ids);
  private final Namespace sales = bed.namespace("sales", Visibility.PRIVATE);
  private final Namespace hr = bed.namespace("hr", Visibility.PRIVATE);
  private final OrgContext reader = bed.member("reader", Role.MEMBER);
  private final OrgContext stranger = bed.member("stranger", Role.MEMBER);

  private static final org.apache.iceberg.catalog.Namespace SALES =
      org.apache.iceberg.catalog.Namespace.of("sales");

  RegisterTableServiceTest() {
    bed.grant(reader.caller().principal().id(), sales, Optional.empty(), Action.READ);
  }

  /** A table's metadata file under {@code directory} of the namespace, no catalog entry. */
  private TableMetadata written(Namespace namespace, String directory) {
    return bed.files.writeTable(bed.bucket, TableMetadata.newTableMetadata(Testbed.SCHEMA,
        PartitionSpec.unpartitioned(), SortOrder.unsorted(),
        bed.bucket.uriOf(namespace.prefix().resolve(directory)), Map.of()), Optional.empty());
  }

  /** The next version of a table's metadata, written beside it. */
  private TableMetadata next(TableMetadata base) {
    return bed.files.writeTable(bed.bucket, TableMetadata.buildFrom(base)
        .setProperties(Map.of("version", "next")).build(),
        Optional.of(base.metadataFileLocation()));
  }

  private static RegisterTableRequest registering(String name, String location) {
    return ImmutableRegisterTableRequest.builder().name(name).metadataLocation(location).build();
  }

  private static RegisterTableRequest overwriting(String name, String location) {
    return ImmutableRegisterTableRequest.builder().name(name).metadataLocation(location)
        .overwrite(true).build();
  }

  private Optional<CatalogObject> entry(String name) {
    return bed.store.objects().find(bed.org.id(), sales.name(), new TableName(name));
  }

  private List<AuditEntry> audit() {
    return bed.auditLog();
  }

  @Test
  void metadataInsideTheNamespaceIsAdoptedAtItsOwnLocationAndAudited() {
    TableMetadata legacy = written(sales, "legacy");

    LoadTableResponse registered = register.registerTable(bed.admin, SALES,
        registering("legacy", legacy.metadataFileLocation()));

    assertThat(registered.metadataLocation()).isEqualTo(legacy.metadataFileLocation());
    assertThat(registered.tableMetadata().uuid()).isEqualTo(legacy.uuid());
    CatalogObject entry = entry("legacy").orElseThrow();
    assertThat(entry.metadataLocation()).isEqualTo(legacy.metadataFileLocation());
    assertThat(entry.location().path()).isEqualTo(sales.prefix().resolve("legacy"));
    assertThat(entry.hasStorageOverride()).isFalse();
    assertThat(audit()).singleElement().satisfies(audited -> {
      assertThat(audited.action()).isEqualTo("table.register");
      assertThat(audited.targetName()).isEqualTo("sales.legacy");
      assertThat(audited.details())
          .containsEntry("metadata_location", legacy.metadataFileLocation());
    });
  }

  @Test
  void metadataOfAnotherNamespaceIsOutsideAndAMissingFileIsRefusedWithoutSayingWhy() {
    TableMetadata theirs = written(hr, "salaries");
    String missing = bed.bucket.uriOf(sales.prefix().resolve("ghost/metadata/00000-x.json"));

    assertThatThrownBy(() -> register.registerTable(bed.admin, SALES,
        registering("salaries", theirs.metadataFileLocation())))
        .isInstanceOf(ForbiddenException.class);
    assertThatThrownBy(() -> register.registerTable(bed.admin, SALES,
        registering("ghost", missing)))
        .isInstanceOf(BadRequestException.class)
        .hasMessageContaining("no readable Iceberg metadata file of this namespace");
    assertThatThrownBy(() -> register.registerTable(bed.admin, SALES,
        registering("bent", bed.bucket.uriOf(sales.prefix()) + "/a/../../hr/x.json")))
        .isInstanceOf(BadRequestException.class);
    assertThat(entry("salaries")).isEmpty();
    assertThat(entry("ghost")).isEmpty();
    assertThat(audit()).isEmpty();
  }

  @Test
  void aFileInsideTheNamespaceDescribingATableOutsideItIsRefusedLikeAMissingOne() {
    TableMetadata theirs = written(hr, "salaries");
    // A copy of hr's metadata placed inside sales: the table it describes is still hr's.
    String copy = bed.bucket.uriOf(sales.prefix().resolve("copy/metadata/00000-copy.metadata.json"));
    TableMetadata placed = TableMetadata.buildFrom(theirs).discardChanges()
        .withMetadataLocation(copy).build();
    bed.files.writePlaced(bed.bucket, placed);

    assertThatThrownBy(() -> register.registerTable(bed.admin, SALES,
        registering("copy", copy))).isInstanceOf(BadRequestException.class)
        .hasMessageContaining("no readable Iceberg metadata file of this namespace");
    assertThat(entry("copy")).isEmpty();
  }

  @Test
  void aTakenNameOrATakenLocationIsAConflict() {
    TableMetadata legacy = written(sales, "legacy");
    register.registerTable(bed.admin, SALES, registering("legacy", legacy.metadataFileLocation()));
    bed.view(sales, "daily");

    assertThatThrownBy(() -> register.registerTable(bed.admin, SALES,
        registering("legacy", legacy.metadataFileLocation())))
        .isInstanceOf(AlreadyExistsException.class).hasMessageContaining("Table already exists");
    assertThatThrownBy(() -> register.registerTable(bed.admin, SALES,
        overwriting("daily", legacy.metadataFileLocation())))
        .isInstanceOf(AlreadyExistsException.class).hasMessageContaining("View");
    assertThatThrownBy(() -> register.registerTable(bed.admin, SALES,
        registering("twin", next(legacy).metadataFileLocation())))
        .isInstanceOf(AlreadyExistsException.class).hasMessageContaining("already used");
    assertThat(entry("twin")).isEmpty();
    assertThat(audit()).hasSize(1);
  }

  @Test
  void overwriteMovesTheTablesPointerToANewerFileOfItsOwnAndIsAudited() {
    TableMetadata legacy = written(sales, "legacy");
    register.registerTable(bed.admin, SALES, registering("legacy", legacy.metadataFileLocation()));
    TableMetadata newer = next(legacy);

    LoadTableResponse overwritten = register.registerTable(bed.admin, SALES,
        overwriting("legacy", newer.metadataFileLocation()));

    assertThat(overwritten.tableMetadata().properties()).containsEntry("version", "next");
    assertThat(entry("legacy").orElseThrow().metadataLocation())
        .isEqualTo(newer.metadataFileLocation());
    assertThat(audit()).extracting(AuditEntry::action)
        .containsExactly("table.register", "table.register");
    assertThat(audit().get(1).details()).containsEntry("overwrite", true)
        .containsEntry("previous_metadata_location", legacy.metadataFileLocation())
        .containsEntry("metadata_location", newer.metadataFileLocation());
  }

  @Test
  void overwriteWithTheMetadataOfAnotherTableIsRefused() {
    TableMetadata legacy = written(sales, "legacy");
    TableMetadata other = written(sales, "other");
    register.registerTable(bed.admin, SALES, registering("legacy", legacy.metadataFileLocation()));

    assertThatThrownBy(() -> register.registerTable(bed.admin, SALES,
        overwriting("legacy", other.metadataFileLocation())))
        .isInstanceOf(BadRequestException.class).hasMessageContaining("another location");
    assertThat(entry("legacy").orElseThrow().metadataLocation())
        .isEqualTo(legacy.metadataFileLocation());
  }

  @Test
  void aReaderMayNotRegisterAndAStrangerDoesNotSeeTheNamespace() {
    TableMetadata legacy = written(sales, "legacy");

    assertThatThrownBy(() -> register.registerTable(reader, SALES,
        registering("legacy", legacy.metadataFileLocation())))
        .isInstanceOf(ForbiddenException.class);
    assertThatThrownBy(() -> register.registerTable(stranger, SALES,
        registering("legacy", legacy.metadataFileLocation())))
        .isInstanceOf(NoSuchNamespaceException.class);
    assertThat(entry("legacy")).isEmpty();
    assertThat(audit()).isEmpty();
  }

  @Test
  void theSameRegistrationSentAgainWithItsKeyIsReplayed() {
    TableMetadata legacy = written(sales, "legacy");
    OrgContext keyed = Testbed.withKey(bed.admin, "register-1", "POST sales/register legacy");

    LoadTableResponse first = register.registerTable(keyed, SALES,
        registering("legacy", legacy.metadataFileLocation()));
    LoadTableResponse again = register.registerTable(keyed, SALES,
        registering("legacy", legacy.metadataFileLocation()));

    assertThat(again.metadataLocation()).isEqualTo(first.metadataLocation());
    assertThat(audit()).hasSize(1);
  }

  @Test
  void theRegisteredTableLiesWhereItsMetadataSaysNotWhereTheFileIs() {
    StoragePath expected = sales.prefix().resolve("legacy");
    TableMetadata legacy = written(sales, "legacy");

    register.registerTable(bed.admin, SALES, registering("renamed", legacy.metadataFileLocation()));

    assertThat(entry("renamed").orElseThrow().location().path()).isEqualTo(expected);
  }
}
