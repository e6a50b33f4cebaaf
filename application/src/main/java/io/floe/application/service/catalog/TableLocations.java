package io.floe.application.service.catalog;

import io.floe.application.iceberg.TableBoundary;
import io.floe.domain.BucketConfig;
import io.floe.domain.CanonicalLocation;
import io.floe.domain.NonCanonicalLocationException;
import io.floe.domain.StoragePath;
import java.util.List;
import java.util.Map;
import org.apache.iceberg.PartitionStatisticsFile;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.StatisticsFile;
import org.apache.iceberg.TableMetadata;
import org.apache.iceberg.TableProperties;
import org.apache.iceberg.exceptions.BadRequestException;
import org.apache.iceberg.exceptions.ForbiddenException;
import org.apache.iceberg.view.ViewMetadata;

/**
 * The rule that keeps every table inside its claimed prefix, applied in this one place: no
 * location, data path, metadata path, manifest list or statistics file of a table may point
 * outside the table's own directory.
 *
 * <p>Every location is first parsed into its {@link CanonicalLocation}: one that is not already
 * canonical (percent-encoded, with '.' or '..' segments, '//', '\', '?', '#', ';', look-alike
 * Unicode, ...) is a 400 naming the field, so that what is compared here is exactly what the
 * storage layer will open. A canonical location outside the table is a 403. Which locations lie
 * within a table is decided by {@link TableBoundary}, which also confines every file the server
 * opens for the table later ({@code TableScopedFileIO}).
 */
public final class TableLocations {
  /** Table properties that steer where engines write files. */
  static final List<String> PATH_PROPERTIES = List.of(
      TableProperties.WRITE_DATA_LOCATION,
      TableProperties.WRITE_METADATA_LOCATION,
      TableProperties.OBJECT_STORE_PATH,
      TableProperties.WRITE_FOLDER_STORAGE_LOCATION);

  private TableLocations() {}

  /**
   * Checks a table's whole metadata against its root: its location, path properties, manifest
   * lists, statistics and partition statistics files.
   */
  public static void requireWithin(BucketConfig bucket, String rootUri, TableMetadata metadata) {
    requireWithin(bucket, rootUri, "location", metadata.location());
    requirePathProperties(bucket, rootUri, metadata.properties());
    for (Snapshot snapshot : metadata.snapshots()) {
      if (snapshot.manifestListLocation() != null) {
        requireWithin(bucket, rootUri, "manifest list of snapshot " + snapshot.snapshotId(),
            snapshot.manifestListLocation());
      }
    }
    for (StatisticsFile statistics : metadata.statisticsFiles()) {
      requireWithin(bucket, rootUri, "statistics-path of snapshot " + statistics.snapshotId(),
          statistics.path());
    }
    for (PartitionStatisticsFile statistics : metadata.partitionStatisticsFiles()) {
      requireWithin(bucket, rootUri,
          "partition statistics-path of snapshot " + statistics.snapshotId(), statistics.path());
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

  /**
   * Requires {@code location} (the field {@code what}) to be canonical (400 otherwise) and to lie
   * in {@code bucket} at or beneath {@code rootUri} (403 otherwise).
   */
  public static void requireWithin(BucketConfig bucket, String rootUri, String what,
      String location) {
    canonical(what, location);
    if (!TableBoundary.contains(bucket, rootUri, location)) {
      throw new ForbiddenException("The table's %s '%s' lies outside the table's storage prefix "
          + "'%s'; Floe does not let a table write outside its own prefix", what, location,
          rootUri);
    }
  }

  /** Rejects a location that is not even a well-formed path in the bucket. */
  public static StoragePath pathIn(BucketConfig bucket, String location) {
    return pathIn(bucket, "location", location);
  }

  /** Like {@link #pathIn(BucketConfig, String)}, naming the field in the refusal. */
  public static StoragePath pathIn(BucketConfig bucket, String what, String location) {
    return bucket.pathOf(canonical(what, location)).orElseThrow(() -> new BadRequestException(
        "The %s '%s' is not in bucket configuration '%s'", what, location, bucket.nickname()));
  }

  /** The one parse of a client's location; a non-canonical one is a 400 naming the field. */
  static CanonicalLocation canonical(String what, String location) {
    try {
      return CanonicalLocation.parse(location);
    } catch (NonCanonicalLocationException e) {
      throw new BadRequestException("Invalid %s: %s", what, e.getMessage());
    }
  }
}
