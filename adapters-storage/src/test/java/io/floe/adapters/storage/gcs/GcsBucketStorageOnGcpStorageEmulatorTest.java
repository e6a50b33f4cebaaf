package io.floe.adapters.storage.gcs;

import com.google.cloud.storage.Storage;
import io.floe.adapters.storage.servers.GcsEmulator;
import io.floe.application.port.out.BucketStorage;
import io.floe.application.port.out.contract.BucketStorageContract;
import io.floe.domain.BucketConfig;
import io.floe.domain.StoragePath;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;

/**
 * The storage contract on gcp-storage-emulator: a second GCS implementation for reads, writes,
 * listings and deletes. It takes generation preconditions and ignores them (measured), so the
 * conditional write tests run only on fake-gcs-server.
 */
class GcsBucketStorageOnGcpStorageEmulatorTest extends BucketStorageContract {
  private static GcsEmulator emulator;
  private static Storage client;
  private static BucketConfig bucket;

  @BeforeAll
  static void start() {
    emulator = GcsEmulator.gcpStorageEmulator();
    bucket = GcsContractSupport.newBucket(emulator.endpoint(), "contract");
    client = GcsClients.storage(bucket);
  }

  @AfterAll
  static void stop() throws Exception {
    if (client != null) {
      client.close();
    }
    if (emulator != null) {
      emulator.close();
    }
  }

  /** The emulator's batch answers break the client's parser (measured), so no batches here. */
  @Override
  protected BucketStorage storage() {
    return new GcsBucketStorage(client, bucket, 5, false);
  }

  @Override
  protected String expectedUri(StoragePath key) {
    return "gs://contract/" + key.value();
  }

  @Override
  protected boolean enforcesPreconditions() {
    return emulator.enforcesPreconditions();
  }
}
