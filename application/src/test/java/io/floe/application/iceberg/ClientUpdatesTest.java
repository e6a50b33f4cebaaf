package io.floe.application.iceberg;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.apache.iceberg.MetadataUpdate;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Schema;
import org.apache.iceberg.SortOrder;
import org.apache.iceberg.TableMetadata;
import org.apache.iceberg.exceptions.BadRequestException;
import org.apache.iceberg.types.Types;
import org.junit.jupiter.api.Test;

class ClientUpdatesTest {
  private static final Schema SCHEMA = new Schema(
      Types.NestedField.required(1, "id", Types.LongType.get()),
      Types.NestedField.optional(2, "region", Types.StringType.get()));
  private static final TableMetadata BASE = TableMetadata.newTableMetadata(SCHEMA,
      PartitionSpec.unpartitioned(), SortOrder.unsorted(), "file:///tmp/t", Map.of());

  @Test
  void aDefaultSpecOrSortOrderTheTableDoesNotHaveIsABadRequest() {
    assertThatThrownBy(() -> apply(new MetadataUpdate.SetDefaultPartitionSpec(7)))
        .isInstanceOf(BadRequestException.class)
        .hasMessage("set-default-spec: the table has no partition spec 7");
    assertThatThrownBy(() -> apply(new MetadataUpdate.SetDefaultSortOrder(7)))
        .isInstanceOf(BadRequestException.class)
        .hasMessage("set-default-sort-order: the table has no sort order 7");
  }

  @Test
  void aSpecAddedEarlierInTheSameChangeMayBecomeTheDefaultByIdOrAsTheLastAdded() {
    PartitionSpec byRegion = PartitionSpec.builderFor(SCHEMA).identity("region").build();
    TableMetadata byId = apply(new MetadataUpdate.AddPartitionSpec(byRegion),
        new MetadataUpdate.SetDefaultPartitionSpec(1));
    assertThat(byId.defaultSpecId()).isEqualTo(1);
    TableMetadata lastAdded = apply(new MetadataUpdate.AddPartitionSpec(byRegion),
        new MetadataUpdate.SetDefaultPartitionSpec(-1));
    assertThat(lastAdded.defaultSpecId()).isEqualTo(1);
    assertThat(apply(new MetadataUpdate.SetDefaultPartitionSpec(0)).defaultSpecId()).isZero();
  }

  @Test
  void aTableKeepsItsUuidAndANewOneGetsAWellFormedOne() {
    assertThatThrownBy(() -> apply(new MetadataUpdate.AssignUUID("not-a-uuid")))
        .isInstanceOf(BadRequestException.class).hasMessageContaining("is not a UUID");
    assertThatThrownBy(() -> apply(new MetadataUpdate.AssignUUID(UUID.randomUUID().toString())))
        .isInstanceOf(BadRequestException.class).hasMessageContaining("cannot change");
    assertThat(apply(new MetadataUpdate.AssignUUID(BASE.uuid())).uuid()).isEqualTo(BASE.uuid());
  }

  @Test
  void metadataTheBuilderCannotMakeFromTheClientsUpdatesIsABadRequest() {
    // A staged create's first commit without a sort order: iceberg-core fails on a null.
    assertThatThrownBy(() -> ClientUpdates.applyToTable(null, () -> TableMetadata
        .buildFromEmpty(2), List.of(new MetadataUpdate.AssignUUID(UUID.randomUUID().toString()),
            new MetadataUpdate.AddSchema(SCHEMA), new MetadataUpdate.SetCurrentSchema(-1),
            new MetadataUpdate.SetLocation("file:///tmp/t"))))
        .isInstanceOf(BadRequestException.class)
        .hasMessage("The updates do not describe valid table metadata");
  }

  private static TableMetadata apply(MetadataUpdate... updates) {
    return ClientUpdates.applyToTable(BASE, () -> TableMetadata.buildFrom(BASE),
        List.of(updates));
  }
}
