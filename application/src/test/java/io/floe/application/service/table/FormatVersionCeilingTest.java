package io.floe.application.service.table;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.floe.application.iceberg.MetadataFiles;
import io.floe.application.iceberg.MetadataLimits;
import io.floe.application.iceberg.replay.ChangeReplay;
import io.floe.application.testbed.RecordingStorageAccess;
import io.floe.application.testbed.Testbed;
import io.floe.domain.Namespace;
import io.floe.domain.Visibility;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.apache.iceberg.MetadataUpdate;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.SortOrder;
import org.apache.iceberg.TableMetadata;
import org.apache.iceberg.TableProperties;
import org.apache.iceberg.UpdateRequirement;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.exceptions.BadRequestException;
import org.apache.iceberg.rest.requests.CreateTableRequest;
import org.apache.iceberg.rest.requests.ImmutableRegisterTableRequest;
import org.apache.iceberg.rest.requests.UpdateTableRequest;
import org.junit.jupiter.api.Test;

/**
 * The highest table format version is one rule ({@link MetadataLimits#checkFormatVersion}) for
 * every way a version reaches a table: iceberg-core 1.11 builds version 4 metadata the spec does
 * not define, and each way of asking for it is a 400 that writes nothing. A lowered ceiling
 * refuses a rise only: a table already above it keeps taking commits.
 */
class FormatVersionCeilingTest {
  private final Testbed bed = new Testbed();
  private final RecordingStorageAccess access = new RecordingStorageAccess(bed.clock, true, false);
  private final CreateTableService create = new CreateTableService(bed.locator(), bed.policy(),
      bed.placement(), bed.files, bed.entries(), bed.publisher(),
      bed.storageAccess(access, access), bed.ids, new RepoTableCreation(bed.repoNamespaces(),
          bed.placement(), bed.files, bed.committer(), bed.publisher(), bed.storageAccess()));
  private final RegisterTableService register = new RegisterTableService(bed.locator(),
      bed.policy(), bed.files, bed.entries(), bed.committer(), bed.publisher(), bed.ids);
  private final Namespace sales = bed.namespace("sales", Visibility.PRIVATE);
  private static final org.apache.iceberg.catalog.Namespace SALES =
      org.apache.iceberg.catalog.Namespace.of("sales");
  private static final TableIdentifier ORDERS = TableIdentifier.of(SALES, "orders");

  private CreateTableRequest.Builder inVersion(String version) {
    return CreateTableRequest.builder().withName("orders").withSchema(Testbed.SCHEMA)
        .setProperty(TableProperties.FORMAT_VERSION, version);
  }

  private TableMetadata table(int version) {
    return TableMetadata.newTableMetadata(Testbed.SCHEMA, PartitionSpec.unpartitioned(),
        SortOrder.unsorted(), bed.bucket.uriOf(sales.prefix().resolve("orders")),
        Map.of(TableProperties.FORMAT_VERSION, Integer.toString(version)));
  }

  private static Optional<TableMetadata> commit(TableChanges changes, TableMetadata base,
      MetadataUpdate update) {
    return changes.apply(new TableChanges.Target(ORDERS, null, null), base,
        UpdateTableRequest.create(ORDERS, List.of(), List.of(update)));
  }

  @Test
  void aCreateInVersionFourIsRefusedPlainOrStagedAndWritesNothing() {
    for (boolean staged : List.of(false, true)) {
      CreateTableRequest.Builder request = inVersion("4");
      if (staged) {
        request.stageCreate();
      }
      assertThatThrownBy(() -> create.createTable(bed.admin, SALES, request.build(), Set.of()))
          .isInstanceOf(BadRequestException.class)
          .hasMessageContaining("format version 4").hasMessageContaining("up to 3");
    }
    assertThat(bed.metadataIo.written()).isEmpty();
    assertThat(bed.auditLog()).isEmpty();
    assertThat(create.createTable(bed.admin, SALES, inVersion("3").build(), Set.of())
        .tableMetadata().formatVersion()).isEqualTo(3);
  }

  @Test
  void theFirstCommitOfAStagedCreateCannotAskForVersionFour() {
    UpdateTableRequest first = UpdateTableRequest.create(ORDERS,
        List.of(new UpdateRequirement.AssertTableDoesNotExist()), List.of(
        new MetadataUpdate.UpgradeFormatVersion(4),
        new MetadataUpdate.AddSchema(Testbed.SCHEMA),
        new MetadataUpdate.SetCurrentSchema(-1),
        new MetadataUpdate.AddPartitionSpec(PartitionSpec.unpartitioned()),
        new MetadataUpdate.SetDefaultPartitionSpec(-1),
        new MetadataUpdate.AddSortOrder(SortOrder.unsorted()),
        new MetadataUpdate.SetDefaultSortOrder(-1),
        new MetadataUpdate.SetLocation(bed.bucket.uriOf(sales.prefix().resolve("orders")))));
    StagedTableCompletion staged = new StagedTableCompletion(bed.locator(), bed.policy(),
        bed.placement(), bed.files, bed.entries(), bed.publisher(), bed.ids,
        new RepoTableCreation(bed.repoNamespaces(), bed.placement(), bed.files, bed.committer(),
            bed.publisher(), bed.storageAccess()));
    assertThatThrownBy(() -> staged.complete(bed.admin, ORDERS, first))
        .isInstanceOf(BadRequestException.class).hasMessageContaining("format version 4");
    assertThat(bed.metadataIo.written()).isEmpty();
    assertThat(bed.locator().find(bed.admin, ORDERS)).isEmpty();
  }

  @Test
  void aCommitUpgradingToVersionFourOrSettingItsPropertyIsRefused() {
    TableChanges changes = new TableChanges(bed.files, new ChangeReplay());
    TableMetadata base = table(3);
    assertThatThrownBy(() -> commit(changes, base, new MetadataUpdate.UpgradeFormatVersion(4)))
        .isInstanceOf(BadRequestException.class).hasMessageContaining("format version 4");
    assertThatThrownBy(() -> commit(changes, base, new MetadataUpdate.SetProperties(
        Map.of(TableProperties.FORMAT_VERSION, "4"))))
        .isInstanceOf(BadRequestException.class).hasMessageContaining("'format-version' to 4");
    assertThatThrownBy(() -> commit(changes, base, new MetadataUpdate.SetProperties(
        Map.of(TableProperties.FORMAT_VERSION, "four"))))
        .isInstanceOf(BadRequestException.class).hasMessageContaining("no format version");
    assertThat(commit(changes, table(2), new MetadataUpdate.UpgradeFormatVersion(3))
        .orElseThrow().formatVersion()).isEqualTo(3);
  }

  @Test
  void aLoweredCeilingRefusesARiseButATableAlreadyAboveItKeepsTakingCommits() {
    MetadataFiles files = new MetadataFiles(bed.metadataIo,
        MetadataLimits.DEFAULTS.withMaxFormatVersion(2));
    TableChanges changes = new TableChanges(files, new ChangeReplay());
    assertThatThrownBy(() -> commit(changes, table(2), new MetadataUpdate.UpgradeFormatVersion(3)))
        .isInstanceOf(BadRequestException.class).hasMessageContaining("up to 2");
    assertThat(commit(changes, table(3), new MetadataUpdate.SetProperties(Map.of("a", "b")))
        .orElseThrow().formatVersion()).isEqualTo(3);
    assertThatThrownBy(() -> MetadataLimits.DEFAULTS.withMaxFormatVersion(4))
        .isInstanceOf(IllegalArgumentException.class);
    assertThat(MetadataLimits.DEFAULTS.maxFormatVersion()).isEqualTo(3);
  }

  @Test
  void registeringAVersionFourMetadataFileIsRefusedWithItsReason() {
    TableMetadata four = bed.files.writeTable(bed.bucket, table(4), Optional.empty());
    assertThat(four.formatVersion()).isEqualTo(4);
    assertThatThrownBy(() -> register.registerTable(bed.admin, SALES,
        ImmutableRegisterTableRequest.builder().name("orders")
            .metadataLocation(four.metadataFileLocation()).build()))
        .isInstanceOf(BadRequestException.class).hasMessageContaining("format version 4");
    assertThat(bed.locator().find(bed.admin, ORDERS)).isEmpty();
  }
}
