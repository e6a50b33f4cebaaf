package io.floe.adapters.storage;

import io.floe.adapters.storage.local.LocalBucketStorage;
import io.floe.adapters.storage.local.LocalFileIO;
import io.floe.application.port.out.BucketStorage;
import io.floe.application.port.out.BucketStorageProvider;
import io.floe.application.port.out.MetadataFileIoProvider;
import io.floe.domain.BucketConfig;
import java.nio.file.Path;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.iceberg.io.FileIO;

/**
 * Opens object storage and Iceberg FileIO for each platform a bucket can be on. One FileIO per
 * bucket is kept: they hold connection pools.
 */
public final class StorageAdapters implements BucketStorageProvider, MetadataFileIoProvider,
    AutoCloseable {
  private final Map<UUID, FileIO> fileIos = new ConcurrentHashMap<>();

  @Override
  public BucketStorage open(BucketConfig bucket) {
    return switch (bucket.platform()) {
      case LOCAL -> new LocalBucketStorage(Path.of(bucket.bucket()));
      default -> throw new UnsupportedPlatformException(bucket);
    };
  }

  @Override
  public FileIO fileIo(BucketConfig bucket) {
    return fileIos.computeIfAbsent(bucket.id(), id -> switch (bucket.platform()) {
      case LOCAL -> new LocalFileIO();
      default -> throw new UnsupportedPlatformException(bucket);
    });
  }

  @Override
  public void close() {
    fileIos.values().forEach(FileIO::close);
    fileIos.clear();
  }
}
