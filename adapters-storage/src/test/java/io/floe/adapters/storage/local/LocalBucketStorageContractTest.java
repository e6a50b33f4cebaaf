package io.floe.adapters.storage.local;

import static org.assertj.core.api.Assertions.assertThat;

import io.floe.adapters.storage.BucketStorageContract;
import io.floe.application.port.out.BucketStorage;
import io.floe.domain.StoragePath;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
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

  /** DuckDB writes a table's manifests and data files without creating their directories. */
  @Test
  void aPreparedLocationIsADirectoryEnginesWriteFilesStraightInto() throws IOException {
    StoragePath table = key("ns-prefix/table-1");
    storage().prepareLocation(table.resolve("metadata"));
    assertThat(storage().isEmptyUnder(table)).isTrue();

    Path manifest = root.resolve(table.value()).resolve("metadata").resolve("m0.avro");
    Files.write(manifest, new byte[] {1});
    assertThat(storage().list(table, 10)).containsExactly(table.resolve("metadata/m0.avro"));
  }
}
