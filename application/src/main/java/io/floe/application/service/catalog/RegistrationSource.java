package io.floe.application.service.catalog;

import io.floe.application.iceberg.MetadataFiles;
import io.floe.domain.BucketConfig;
import io.floe.domain.StoragePath;
import java.util.function.Supplier;
import org.apache.iceberg.TableMetadata;
import org.apache.iceberg.exceptions.BadRequestException;
import org.apache.iceberg.view.ViewMetadata;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Reads the metadata file a register request names, without becoming an oracle for what exists
 * on storage. The location must be canonical and inside the namespace's prefix (decided before
 * anything is read); after that, a missing file, one that cannot be read (a directory, a link the
 * storage layer refuses, an I/O error), one that is not Iceberg metadata and one whose table lies
 * outside the namespace all get the same 400 with the same message.
 */
public final class RegistrationSource {
  private static final Logger LOG = LoggerFactory.getLogger(RegistrationSource.class);
  public static final String FIELD = "metadata-location";

  private RegistrationSource() {}

  /** A table's metadata to register, with the path of the table it describes. */
  public record Table(TableMetadata metadata, StoragePath location) {}

  /** A view's metadata to register, with the path of the view it describes. */
  public record View(ViewMetadata metadata, StoragePath location) {}

  public static Table table(MetadataFiles files, BucketConfig bucket, String namespaceUri,
      String metadataLocation) {
    TableLocations.requireWithin(bucket, namespaceUri, FIELD, metadataLocation);
    Table table = uniformly(metadataLocation, () -> {
      TableMetadata metadata = files.readTable(bucket, metadataLocation);
      TableLocations.requireWithin(bucket, namespaceUri, metadata);
      return new Table(metadata, TableLocations.pathIn(bucket, metadata.location()));
    });
    // Outside the uniform answer: the file is the caller's own, readable, and only its version
    // is refused, which the caller needs to know.
    files.limits().checkFormatVersion(null, table.metadata(), "the registered table");
    return table;
  }

  public static View view(MetadataFiles files, BucketConfig bucket, String namespaceUri,
      String metadataLocation) {
    TableLocations.requireWithin(bucket, namespaceUri, FIELD, metadataLocation);
    return uniformly(metadataLocation, () -> {
      ViewMetadata metadata = files.readView(bucket, metadataLocation);
      TableLocations.requireWithin(bucket, namespaceUri, metadata);
      return new View(metadata, TableLocations.pathIn(bucket, metadata.location()));
    });
  }

  /** Runs {@code read}; whatever goes wrong becomes one answer. The cause is only logged. */
  private static <T> T uniformly(String metadataLocation, Supplier<T> read) {
    try {
      return read.get();
    } catch (RuntimeException e) {
      LOG.info("refused to register {}: {}", metadataLocation, e.toString());
      throw new BadRequestException("Cannot register '%s': there is no readable Iceberg "
          + "metadata file of this namespace at that location", metadataLocation);
    }
  }
}
