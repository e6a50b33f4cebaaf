package io.floe.application.service.catalog;

import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.floe.domain.BucketConfig;
import io.floe.domain.BucketCredentials;
import io.floe.domain.CatalogName;
import io.floe.domain.StoragePath;
import io.floe.domain.StoragePlatform;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import org.apache.iceberg.TableProperties;
import org.apache.iceberg.exceptions.ForbiddenException;
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
        ROOT + "/../neighbour", "s3://other-bucket/ab12cd34_ns/orders-0f/data",
        "gs://data/ab12cd34_ns/orders-0f", "file:///etc"}) {
      assertThatThrownBy(() -> TableLocations.requirePathProperties(BUCKET, ROOT,
          Map.of(TableProperties.WRITE_DATA_LOCATION, outside)))
          .as(outside).isInstanceOf(ForbiddenException.class)
          .hasMessageContaining(TableProperties.WRITE_DATA_LOCATION);
    }
  }
}
