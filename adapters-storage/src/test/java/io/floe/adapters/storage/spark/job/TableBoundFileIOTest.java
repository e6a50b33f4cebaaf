package io.floe.adapters.storage.spark.job;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import java.util.Map;
import org.apache.iceberg.exceptions.ForbiddenException;
import org.junit.jupiter.api.Test;

/**
 * Where the Spark job's FileIO sends a path (the end-to-end run through Floe's S3 endpoint is the
 * Python suite's test_spark_maintenance.py): on a local bucket, a path beneath the bucket's root,
 * in any spelling of file:, becomes the endpoint's object of the same key; every other path is
 * refused before anything is sent, and so is every path when the catalog vended nothing.
 */
class TableBoundFileIOTest {
  private static final Map<String, String> LOCAL = Map.of(
      TableBoundFileIO.ROOT, "file:///srv/floe/buckets/default/",
      TableBoundFileIO.ENDPOINT_BUCKET, "floe-local-bucket",
      TableBoundFileIO.ENDPOINT, "http://127.0.0.1:8181",
      "s3.access-key-id", "FLOEabc", "s3.secret-access-key", "secret");

  private static TableBoundFileIO io(Map<String, String> properties) {
    TableBoundFileIO io = new TableBoundFileIO();
    io.initialize(properties);
    return io;
  }

  @Test
  void aPathBeneathTheLocalBucketsRootIsTheEndpointsObjectOfTheSameKey() {
    try (TableBoundFileIO io = io(LOCAL)) {
      for (String path : List.of("file:///srv/floe/buckets/default/ns_1/t_2/data/a.parquet",
          "file:/srv/floe/buckets/default/ns_1/t_2/data/a.parquet",
          "file://localhost/srv/floe/buckets/default/ns_1/t_2/data/a.parquet",
          "/srv/floe/buckets/default/ns_1/t_2/data/a.parquet")) {
        assertThat(io.target(path)).as(path)
            .isEqualTo("s3://floe-local-bucket/ns_1/t_2/data/a.parquet");
      }
      assertThat(io.newInputFile("file:/srv/floe/buckets/default/ns_1/t_2/m.avro").location())
          .as("files keep the location the table names them by")
          .isEqualTo("file:/srv/floe/buckets/default/ns_1/t_2/m.avro");
      assertThat(io.newOutputFile("file:///srv/floe/buckets/default/ns_1/t_2/new.parquet")
          .location()).isEqualTo("file:///srv/floe/buckets/default/ns_1/t_2/new.parquet");
    }
  }

  @Test
  void everyOtherPathIsRefusedBeforeAnythingIsSent() {
    try (TableBoundFileIO io = io(LOCAL)) {
      for (String path : List.of("file:///srv/floe/secret.key", "file:///tmp/x.parquet",
          "/srv/floe/admin.token", "file:///srv/floe/buckets/default/../secret.key",
          "file:///srv/floe/buckets/default/ns_1/./../../../secret.key",
          "file:///srv/floe/buckets/defaultx/t/a.parquet",
          "file://otherhost/srv/floe/buckets/default/t/a.parquet",
          "s3://floe-local-bucket/ns_1/t_2/a.parquet", "hdfs://nn/srv/floe/buckets/default/t")) {
        assertThatThrownBy(() -> io.target(path)).as(path)
            .isInstanceOf(ForbiddenException.class)
            .hasMessageContaining("refused the path " + path);
      }
      assertThatThrownBy(() -> io.deleteFiles(List.of(
          "file:///srv/floe/buckets/default/ns_1/t_2/a.parquet", "file:///tmp/x.parquet")))
          .isInstanceOf(ForbiddenException.class);
    }
  }

  @Test
  void onAnObjectStoreOnlyObjectStorePathsWithVendedCredentialsAreReached() {
    try (TableBoundFileIO io = io(Map.of("s3.access-key-id", "ASIA", "s3.secret-access-key",
        "s", "s3.session-token", "t"))) {
      assertThat(io.target("s3://data/ns/t/a.parquet")).isEqualTo("s3://data/ns/t/a.parquet");
      assertThatThrownBy(() -> io.target("file:///srv/floe/secret.key"))
          .isInstanceOf(ForbiddenException.class);
    }
    try (TableBoundFileIO io = io(Map.of())) {
      assertThatThrownBy(() -> io.target("s3://data/ns/t/a.parquet"))
          .isInstanceOf(ForbiddenException.class)
          .hasMessageContaining("vended no credentials");
    }
  }
}
