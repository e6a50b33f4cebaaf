package io.floe.application.port.out;

import io.floe.domain.BucketConfig;
import org.apache.iceberg.io.FileIO;

/**
 * Iceberg's own {@link FileIO} for a bucket, with the server's credentials: how the catalog reads
 * and writes {@code metadata.json} files.
 */
public interface MetadataFileIoProvider {
  FileIO fileIo(BucketConfig bucket);
}
