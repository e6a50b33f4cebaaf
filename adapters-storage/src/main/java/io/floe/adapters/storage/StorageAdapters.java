package io.floe.adapters.storage;

import io.floe.adapters.storage.local.LocalBucketStorage;
import io.floe.adapters.storage.local.LocalFileIO;
import io.floe.adapters.storage.s3.S3BucketStorage;
import io.floe.adapters.storage.s3.S3Clients;
import io.floe.adapters.storage.s3.S3MetadataFileIo;
import io.floe.application.port.out.BucketStorage;
import io.floe.application.port.out.BucketStorageProvider;
import io.floe.application.port.out.MetadataFileIoProvider;
import io.floe.domain.BucketConfig;
import java.nio.file.Path;
import org.apache.iceberg.io.FileIO;
import software.amazon.awssdk.services.s3.S3Client;

/**
 * Opens object storage and Iceberg FileIO for each platform a bucket can be on. Clients and
 * FileIOs are kept per bucket: they hold connection pools.
 */
public final class StorageAdapters implements BucketStorageProvider, MetadataFileIoProvider,
    AutoCloseable {
  private final ClientCache<FileIO> fileIos = new ClientCache<>(StorageAdapters::newFileIo);
  private final ClientCache<S3Client> s3Clients = new ClientCache<>(S3Clients::s3);

  @Override
  public BucketStorage open(BucketConfig bucket) {
    return switch (bucket.platform()) {
      case LOCAL -> new LocalBucketStorage(Path.of(bucket.bucket()));
      case S3, S3_COMPATIBLE -> new S3BucketStorage(s3Clients.get(bucket), bucket);
      default -> throw new UnsupportedPlatformException(bucket);
    };
  }

  @Override
  public FileIO fileIo(BucketConfig bucket) {
    return fileIos.get(bucket);
  }

  private static FileIO newFileIo(BucketConfig bucket) {
    return switch (bucket.platform()) {
      case LOCAL -> new LocalFileIO();
      case S3, S3_COMPATIBLE -> S3MetadataFileIo.open(bucket);
      default -> throw new UnsupportedPlatformException(bucket);
    };
  }

  @Override
  public void close() {
    fileIos.close();
    s3Clients.close();
  }
}
