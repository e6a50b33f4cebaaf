package io.floe.adapters.storage.s3;

import static org.assertj.core.api.Assertions.assertThat;

import io.floe.adapters.storage.PrefixConfinement;
import io.floe.adapters.storage.StorageAdapters;
import io.floe.application.iceberg.MetadataFiles;
import io.floe.application.port.out.BucketStorage;
import io.floe.domain.BucketConfig;
import io.floe.domain.StoragePath;
import java.util.Map;
import java.util.Optional;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Schema;
import org.apache.iceberg.SortOrder;
import org.apache.iceberg.TableMetadata;
import org.apache.iceberg.types.Types;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** The catalog's metadata files go through Iceberg's S3FileIO onto an S3-compatible server. */
class S3MetadataFileIoTest {
  private static S3ProxyServer server;
  private static BucketConfig bucket;
  private static StorageAdapters adapters;

  @BeforeAll
  static void start() throws Exception {
    server = new S3ProxyServer();
    bucket = server.newBucket("warehouse");
    adapters = new StorageAdapters();
  }

  @AfterAll
  static void stop() throws Exception {
    adapters.close();
    server.close();
  }

  @Test
  void metadataWrittenThroughS3FileIoReadsBackAndIsAnObjectInTheBucket() {
    Schema schema = new Schema(Types.NestedField.required(1, "station", Types.StringType.get()));
    String tableRoot = bucket.uriOf(new StoragePath("org/ns-1/observations"));
    TableMetadata metadata = TableMetadata.newTableMetadata(schema, PartitionSpec.unpartitioned(),
        SortOrder.unsorted(), tableRoot, Map.of());
    MetadataFiles files = new MetadataFiles(adapters);

    TableMetadata written = files.writeTable(bucket, metadata, Optional.empty());

    assertThat(written.metadataFileLocation()).startsWith(tableRoot + "/metadata/");
    TableMetadata read = files.readTable(bucket, written.metadataFileLocation());
    assertThat(read.schema().asStruct()).isEqualTo(schema.asStruct());
    assertThat(read.location()).isEqualTo(tableRoot);

    BucketStorage storage = adapters.open(bucket);
    StoragePath key = bucket.pathOf(written.metadataFileLocation()).orElseThrow();
    assertThat(storage.exists(key)).isTrue();
    assertThat(storage.list(new StoragePath("org/ns-1"), 10)).containsExactly(key);
  }

  @Test
  void oneFileIoServesEachBucketUntilItsConfigurationChanges() {
    assertThat(adapters.fileIo(bucket)).isSameAs(adapters.fileIo(bucket));
    BucketConfig moved = new BucketConfig(bucket.id(), bucket.orgId(), bucket.nickname(),
        bucket.platform(), bucket.bucket(), bucket.prefix(), Optional.of(server.endpoint() + "/"),
        bucket.region(), bucket.pathStyle(), bucket.credentials(), bucket.isDefault());
    assertThat(adapters.fileIo(moved)).isNotSameAs(adapters.fileIo(bucket));
  }

  @Test
  void nothingOutsideTheConfiguredPrefixIsOpenedWrittenOrListed() {
    PrefixConfinement.show(adapters, bucket, "s3");
  }
}
