package io.floe.application.service.catalog;

import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.floe.domain.BucketConfig;
import io.floe.domain.BucketCredentials;
import io.floe.domain.CatalogName;
import io.floe.domain.StoragePath;
import io.floe.domain.StoragePlatform;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import org.apache.iceberg.GenericStatisticsFile;
import org.apache.iceberg.ImmutableGenericPartitionStatisticsFile;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Schema;
import org.apache.iceberg.SortOrder;
import org.apache.iceberg.TableMetadata;
import org.apache.iceberg.TableProperties;
import org.apache.iceberg.exceptions.BadRequestException;
import org.apache.iceberg.exceptions.ForbiddenException;
import org.apache.iceberg.types.Types;
import org.junit.jupiter.api.Test;

class TableLocationsTest {
  private static final BucketConfig BUCKET = new BucketConfig(UUID.randomUUID(),
      UUID.randomUUID(), new CatalogName("b"), StoragePlatform.S3, "data", StoragePath.root(),
      Optional.empty(), Optional.empty(), false, BucketCredentials.ambient(), true);
  private static final String ROOT = "s3://data/ab12cd34_ns/orders-0f";

  @Test
  void pathsInsideTheTableAreAccepted() {
    assertThatCode(() -> TableLocations.requirePathProperties(BUCKET, ROOT, Map.of(
        TableProperties.WRITE_DATA_LOCATION, ROOT + "/data",
        TableProperties.WRITE_METADATA_LOCATION, ROOT + "/metadata/")))
        .doesNotThrowAnyException();
  }

  @Test
  void pathsThatLeaveTheTableAreRefused() {
    for (String outside : new String[] {"s3://data/ab12cd34_ns/orders-0fX", "s3://data/other",
        "s3://other-bucket/ab12cd34_ns/orders-0f/data",
        "gs://data/ab12cd34_ns/orders-0f", "file:///etc"}) {
      assertThatThrownBy(() -> TableLocations.requirePathProperties(BUCKET, ROOT,
          Map.of(TableProperties.WRITE_DATA_LOCATION, outside)))
          .as(outside).isInstanceOf(ForbiddenException.class)
          .hasMessageContaining(TableProperties.WRITE_DATA_LOCATION);
    }
  }

  @Test
  void nonCanonicalPathsAreABadRequestNamingTheField() {
    for (String hostile : new String[] {ROOT + "/../neighbour", ROOT + "/%2e%2e/neighbour",
        ROOT + "/data/%2E", ROOT + "//data", ROOT + "/\uFF0E\uFF0E/x", ROOT + "/x;y",
        "S3://data/ab12cd34_ns/orders-0f/data", "s3://data:1/ab12cd34_ns/orders-0f/data"}) {
      assertThatThrownBy(() -> TableLocations.requirePathProperties(BUCKET, ROOT,
          Map.of(TableProperties.WRITE_METADATA_LOCATION, hostile)))
          .as(hostile).isInstanceOf(BadRequestException.class)
          .hasMessageContaining(TableProperties.WRITE_METADATA_LOCATION)
          .hasMessageContaining("not a canonical location");
    }
  }

  @Test
  void statisticsFilesMustLieInTheTable() {
    TableMetadata table = TableMetadata.newTableMetadata(
        new Schema(Types.NestedField.required(1, "id", Types.LongType.get())),
        PartitionSpec.unpartitioned(), SortOrder.unsorted(), ROOT, Map.of());
    TableMetadata inside = withStatistics(table, ROOT + "/metadata/s.puffin",
        ROOT + "/metadata/p.parquet");
    assertThatCode(() -> TableLocations.requireWithin(BUCKET, ROOT, inside))
        .doesNotThrowAnyException();
    assertThatThrownBy(() -> TableLocations.requireWithin(BUCKET, ROOT,
        withStatistics(table, "s3://data/elsewhere/s.puffin", ROOT + "/metadata/p.parquet")))
        .isInstanceOf(ForbiddenException.class).hasMessageContaining("statistics-path");
    assertThatThrownBy(() -> TableLocations.requireWithin(BUCKET, ROOT,
        withStatistics(table, ROOT + "/metadata/s.puffin", ROOT + "/%2e%2e/p.parquet")))
        .isInstanceOf(BadRequestException.class)
        .hasMessageContaining("partition statistics-path");
  }

  private static TableMetadata withStatistics(TableMetadata table, String statistics,
      String partitionStatistics) {
    return TableMetadata.buildFrom(table)
        .setStatistics(new GenericStatisticsFile(7, statistics, 10, 5, List.of()))
        .setPartitionStatistics(ImmutableGenericPartitionStatisticsFile.builder().snapshotId(7)
            .path(partitionStatistics).fileSizeInBytes(10).build())
        .build();
  }
}
