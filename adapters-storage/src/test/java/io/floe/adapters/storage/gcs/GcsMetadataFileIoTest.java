package io.floe.adapters.storage.gcs;

import static org.assertj.core.api.Assertions.assertThat;

import io.floe.adapters.storage.PrefixConfinement;
import io.floe.adapters.storage.StorageAdapters;
import io.floe.adapters.storage.servers.GcsEmulator;
import io.floe.application.iceberg.MetadataFiles;
import io.floe.application.port.out.CredentialVendor.Access;
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

/** The catalog's metadata files go through Iceberg's GCSFileIO onto a GCS emulator. */
class GcsMetadataFileIoTest {
  private static GcsEmulator emulator;
  private static BucketConfig bucket;
  private static StorageAdapters adapters;

  @BeforeAll
  static void start() {
    emulator = GcsEmulator.fakeGcsServer();
    bucket = GcsContractSupport.newBucket(emulator.endpoint(), "warehouse");
    adapters = new StorageAdapters();
  }

  @AfterAll
  static void stop() {
    if (adapters != null) {
      adapters.close();
    }
    if (emulator != null) {
      emulator.close();
    }
  }

  @Test
  void metadataWrittenThroughGcsFileIoReadsBackAndIsAnObjectInTheBucket() {
    Schema schema = new Schema(Types.NestedField.required(1, "station", Types.StringType.get()));
    String tableRoot = bucket.uriOf(new StoragePath("org/ns-1/observations"));
    assertThat(tableRoot).startsWith("gs://warehouse/");
    TableMetadata metadata = TableMetadata.newTableMetadata(schema, PartitionSpec.unpartitioned(),
        SortOrder.unsorted(), tableRoot, Map.of());
    MetadataFiles files = new MetadataFiles(adapters);

    TableMetadata written = files.writeTable(bucket, metadata, Optional.empty());

    TableMetadata read = files.readTable(bucket, written.metadataFileLocation());
    assertThat(read.schema().asStruct()).isEqualTo(schema.asStruct());
    StoragePath key = bucket.pathOf(written.metadataFileLocation()).orElseThrow();
    assertThat(adapters.open(bucket).list(new StoragePath("org/ns-1"), 10)).containsExactly(key);
  }

  @Test
  void anonymousBucketsVendNothingAndNoGcsBucketTakesSignedRequests() {
    assertThat(adapters.vend(bucket, new StoragePath("org/ns-1/t"), Access.READ_ONLY, "alice"))
        .isEmpty();
    assertThat(adapters.canSign(bucket)).isFalse();
  }

  @Test
  void nothingOutsideTheConfiguredPrefixIsOpenedWrittenOrListed() {
    PrefixConfinement.show(adapters, bucket, "gs");
  }
}
