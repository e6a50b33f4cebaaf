package io.floe.adapters.storage.local;

import io.floe.application.port.out.BucketStorage;
import io.floe.application.port.out.contract.BucketStorageContract;
import io.floe.domain.StoragePath;
import java.nio.file.Path;
import org.junit.jupiter.api.io.TempDir;

class LocalBucketStorageContractTest extends BucketStorageContract {
  @TempDir
  static Path root;

  private LocalBucketStorage storage;

  @Override
  protected BucketStorage storage() {
    if (storage == null) {
      storage = new LocalBucketStorage(root);
    }
    return storage;
  }

  @Override
  protected String expectedUri(StoragePath key) {
    return root.toAbsolutePath().normalize().resolve(key.value()).toUri().toString();
  }
}
