package io.floe.application.iceberg;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.floe.domain.BucketConfig;
import io.floe.domain.BucketCredentials;
import io.floe.domain.CatalogName;
import io.floe.domain.StoragePath;
import io.floe.domain.StoragePlatform;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import org.apache.iceberg.io.FileIO;
import org.apache.iceberg.io.InputFile;
import org.apache.iceberg.io.OutputFile;
import org.apache.iceberg.io.SupportsBulkOperations;
import org.apache.iceberg.io.SupportsPrefixOperations;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The table boundary and the FileIO confined by it: files under the table's root pass, anything
 * else (another table, a sibling whose name starts the same, another bucket or scheme, a path
 * that climbs out with {@code ..} or hides it behind percent-encoding) is refused before the
 * bucket's FileIO is asked for it, with an exception naming the file and the root.
 */
class TableScopedFileIOTest {
  private static final BucketConfig S3 = bucket(StoragePlatform.S3, "lake");
  private static final BucketConfig LOCAL = bucket(StoragePlatform.LOCAL, "/srv/floe/warehouse");
  private static final String ROOT = "s3://lake/sales/orders-1a2b";

  private static BucketConfig bucket(StoragePlatform platform, String name) {
    return new BucketConfig(UUID.randomUUID(), UUID.randomUUID(), new CatalogName("main"),
        platform, name, StoragePath.root(), Optional.empty(), Optional.empty(), false,
        BucketCredentials.ambient(), true);
  }

  /** A bucket FileIO that records what it was asked for and opens nothing. */
  private static class Recording implements FileIO {
    final List<String> asked = new ArrayList<>();

    @Override
    public InputFile newInputFile(String location) {
      asked.add("read " + location);
      return null;
    }

    @Override
    public OutputFile newOutputFile(String location) {
      asked.add("write " + location);
      return null;
    }

    @Override
    public void deleteFile(String location) {
      asked.add("delete " + location);
    }
  }

  @ParameterizedTest
  @ValueSource(strings = {
      ROOT + "/data/part-0.parquet",
      ROOT + "/metadata/snap-1.avro",
      ROOT + "/a/b/c/deep.parquet",
      ROOT})
  void filesUnderTheRootAreTheTables(String location) {
    assertThat(TableBoundary.contains(S3, ROOT, location)).isTrue();
    Recording bucketIo = new Recording();
    FileIO io = TableScopedFileIO.confine(bucketIo, TableBoundary.of(S3, ROOT));

    io.newInputFile(location);
    io.newInputFile(location, 10);
    io.newOutputFile(location);
    io.deleteFile(location);

    assertThat(bucketIo.asked).containsExactly("read " + location, "read " + location,
        "write " + location, "delete " + location);
  }

  @ParameterizedTest
  @ValueSource(strings = {
      "s3://lake/sales/customers-9f8e/data/part-0.parquet",
      "s3://lake/sales/orders-1a2b-evil/data/part-0.parquet",
      "s3://lake/sales/orders-1a2b/../customers-9f8e/data/part-0.parquet",
      "s3://lake/sales/orders-1a2b/data/../../customers-9f8e/x.parquet",
      "s3://lake/sales/orders-1a2b/%2e%2e/customers-9f8e/x.parquet",
      "s3://lake/sales/orders-1a2b%2Fdata/x.parquet",
      "s3://lake/sales/orders-1a2b/./data/x.parquet",
      "s3://lake/sales/orders-1a2b//data/x.parquet",
      "s3://lake/sales/orders-1a2b\\..\\customers-9f8e/x.parquet",
      "s3://lake/sales/orders-1a2b/data/x.parquet?versionId=1",
      "s3://other-bucket/sales/orders-1a2b/data/part-0.parquet",
      "s3a://lake/sales/orders-1a2b/data/part-0.parquet",
      "S3://lake/sales/orders-1a2b/data/part-0.parquet",
      "gs://lake/sales/orders-1a2b/data/part-0.parquet",
      "file:///lake/sales/orders-1a2b/data/part-0.parquet",
      "/lake/sales/orders-1a2b/data/part-0.parquet",
      "s3://lake/sales",
      "sales/orders-1a2b/data/part-0.parquet",
      ""})
  void anythingElseIsRefusedBeforeTheBucketsFileIoSeesIt(String location) {
    assertThat(TableBoundary.contains(S3, ROOT, location)).isFalse();
    Recording bucketIo = new Recording();
    FileIO io = TableScopedFileIO.confine(bucketIo, TableBoundary.of(S3, ROOT));

    assertThatThrownBy(() -> io.newInputFile(location)).isInstanceOf(
        ForeignTableFileException.class).hasMessageContaining(ROOT)
        .hasMessageContaining("outside the table's location");
    assertThatThrownBy(() -> io.newInputFile(location, 10))
        .isInstanceOf(ForeignTableFileException.class);
    assertThatThrownBy(() -> io.newOutputFile(location))
        .isInstanceOf(ForeignTableFileException.class);
    assertThatThrownBy(() -> io.deleteFile(location))
        .isInstanceOf(ForeignTableFileException.class);
    assertThat(bucketIo.asked).isEmpty();
  }

  @Test
  void theRefusalNamesTheFileAndTheRoot() {
    String foreign = "s3://lake/sales/customers-9f8e/data/part-0.parquet";
    assertThatThrownBy(() -> TableBoundary.of(S3, ROOT).require(foreign))
        .isInstanceOfSatisfying(ForeignTableFileException.class, refused -> {
          assertThat(refused.location()).isEqualTo(foreign);
          assertThat(refused.rootUri()).isEqualTo(ROOT);
          assertThat(refused.getMessage()).contains(foreign).contains(ROOT);
        });
    assertThat(ForeignTableFileException.in(new RuntimeException("wrapped",
        new ForeignTableFileException(foreign, ROOT)))).isPresent();
    assertThat(ForeignTableFileException.in(new RuntimeException("other"))).isEmpty();
  }

  @Test
  void onALocalBucketEveryFileSpellingIsComparedCanonically() {
    String root = "file:///srv/floe/warehouse/sales/orders-1a2b";
    TableBoundary boundary = TableBoundary.of(LOCAL, root);

    assertThat(boundary.contains(root + "/data/part-0.parquet")).isTrue();
    assertThat(boundary.contains("file:/srv/floe/warehouse/sales/orders-1a2b/data/x.parquet"))
        .isTrue();
    assertThat(boundary.contains("/srv/floe/warehouse/sales/orders-1a2b/data/x.parquet"))
        .isTrue();
    assertThat(boundary.contains("file:///srv/floe/warehouse/sales/orders-1a2b-evil/x.parquet"))
        .isFalse();
    assertThat(boundary.contains("file:///srv/floe/warehouse/sales/orders-1a2b/../other/x"))
        .isFalse();
    assertThat(boundary.contains("file:///srv/floe/admin.token")).isFalse();
    assertThat(boundary.contains("file:///srv/floe/warehouse/sales/customers/data/x.parquet"))
        .isFalse();
    assertThat(boundary.contains("file:///srv/floe/warehouse/sales/orders-1a2b/data/%2e%2e/x"))
        .isFalse();
  }

  @Test
  void itOffersNoBulkOrPrefixOperationAndLeavesTheBucketsFileIoOpen() {
    boolean[] closed = {false};
    FileIO bucketIo = new Recording() {
      @Override
      public void close() {
        closed[0] = true;
      }
    };
    FileIO io = TableScopedFileIO.confine(bucketIo, TableBoundary.of(S3, ROOT));

    assertThat(io).isNotInstanceOf(SupportsBulkOperations.class)
        .isNotInstanceOf(SupportsPrefixOperations.class);
    io.close();
    assertThat(closed[0]).isFalse();
  }
}
