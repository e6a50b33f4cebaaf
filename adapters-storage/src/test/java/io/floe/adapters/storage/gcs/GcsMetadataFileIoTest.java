package io.floe.adapters.storage.gcs;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.floe.adapters.storage.StorageAdapters;
import io.floe.adapters.storage.servers.GcsEmulator;
import io.floe.application.iceberg.MetadataFiles;
import io.floe.application.port.out.CredentialVendor.Access;
import io.floe.application.port.out.RefusedLocationException;
import io.floe.domain.BucketConfig;
import io.floe.domain.StoragePath;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Schema;
import org.apache.iceberg.SortOrder;
import org.apache.iceberg.TableMetadata;
import org.apache.iceberg.io.FileIO;
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
    BucketConfig prefixed = new BucketConfig(UUID.randomUUID(), bucket.orgId(),
        bucket.nickname(), bucket.platform(), bucket.bucket(), new StoragePath("floe"),
        bucket.endpoint(), bucket.region(), bucket.pathStyle(), bucket.credentials(), false);
    FileIO io = adapters.fileIo(prefixed);
    for (String location : new String[] {
        "gs://warehouse/floe/../escaped/x.json", "gs://warehouse/floe/%2e%2e/escaped/x.json",
        "gs://warehouse/floe/./x.json", "gs://warehouse/floe//x.json",
        "gs://warehouse/escaped/x.json", "gs://other/floe/x.json",
        "GS://warehouse/floe/x.json", "gsa://warehouse/floe/x.json"}) {
      assertThatThrownBy(
          () -> io.newOutputFile(location).createOrOverwrite().close()).as(location)
          .isInstanceOf(RefusedLocationException.class);
    }
    var storage = adapters.open(prefixed);
    assertThatThrownBy(
        () -> storage.put(new StoragePath("escaped/x.json"), new byte[1]))
        .isInstanceOf(RefusedLocationException.class);
    assertThatThrownBy(
        () -> storage.list(StoragePath.root(), 10))
        .isInstanceOf(RefusedLocationException.class);
    assertThat(adapters.open(bucket).list(new StoragePath("escaped"), 10)).isEmpty();
  }
}
