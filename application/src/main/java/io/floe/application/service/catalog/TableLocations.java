package io.floe.application.service.catalog;

import io.floe.domain.BucketConfig;
import io.floe.domain.StoragePath;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.TableMetadata;
import org.apache.iceberg.TableProperties;
import org.apache.iceberg.exceptions.BadRequestException;
import org.apache.iceberg.exceptions.ForbiddenException;
import org.apache.iceberg.view.ViewMetadata;

/**
 * The rule that keeps every table inside its claimed prefix: no location, data path, metadata
 * path or manifest list of a table may point outside the table's own directory.
 */
public final class TableLocations {
  /** Table properties that steer where engines write files. */
  static final List<String> PATH_PROPERTIES = List.of(
      TableProperties.WRITE_DATA_LOCATION,
      TableProperties.WRITE_METADATA_LOCATION,
      TableProperties.OBJECT_STORE_PATH,
      TableProperties.WRITE_FOLDER_STORAGE_LOCATION);

  private TableLocations() {}

  /** Checks a table's whole metadata against its root. */
  public static void requireWithin(BucketConfig bucket, String rootUri, TableMetadata metadata) {
    requireWithin(bucket, rootUri, "location", metadata.location());
    requirePathProperties(bucket, rootUri, metadata.properties());
    for (Snapshot snapshot : metadata.snapshots()) {
      if (snapshot.manifestListLocation() != null) {
        requireWithin(bucket, rootUri, "manifest list of snapshot " + snapshot.snapshotId(),
            snapshot.manifestListLocation());
      }
    }
  }

  public static void requireWithin(BucketConfig bucket, String rootUri, ViewMetadata metadata) {
    requireWithin(bucket, rootUri, "location", metadata.location());
  }

  public static void requirePathProperties(BucketConfig bucket, String rootUri,
      Map<String, String> properties) {
    for (String property : PATH_PROPERTIES) {
      String value = properties.get(property);
      if (value != null) {
        requireWithin(bucket, rootUri, property, value);
      }
    }
  }

  public static void requireWithin(BucketConfig bucket, String rootUri, String what,
      String location) {
    Optional<StoragePath> root = bucket.pathOf(rootUri);
    Optional<StoragePath> path = bucket.pathOf(location);
    if (root.isEmpty()) {
      throw new IllegalStateException("table root is not in its bucket: " + rootUri);
    }
    if (path.isEmpty() || !path.get().isWithin(root.get())) {
      throw new ForbiddenException("The table's %s '%s' lies outside the table's storage prefix "
          + "'%s'; Floe does not let a table write outside its own prefix", what, location,
          rootUri);
    }
  }

  /** Rejects a location that is not even a well-formed path in the bucket. */
  public static StoragePath pathIn(BucketConfig bucket, String location) {
    return bucket.pathOf(location).orElseThrow(() -> new BadRequestException(
        "Location '%s' is not in bucket configuration '%s'", location, bucket.nickname()));
  }
}
