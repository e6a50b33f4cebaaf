package io.floe.adapters.storage.gcs;

import com.google.cloud.NoCredentials;
import com.google.cloud.storage.BucketInfo;
import com.google.cloud.storage.StorageOptions;
import io.floe.domain.BucketConfig;
import io.floe.domain.BucketCredentials;
import io.floe.domain.CatalogName;
import io.floe.domain.StoragePath;
import io.floe.domain.StoragePlatform;
import java.util.Optional;
import java.util.UUID;

/** Buckets on a GCS emulator for tests. */
final class GcsContractSupport {
  private GcsContractSupport() {}

  /** Creates the bucket (which needs a project, unlike object requests) and configures it. */
  static BucketConfig newBucket(String endpoint, String name) {
    try (var admin = StorageOptions.http().setHost(endpoint).setProjectId("floe-test")
        .setCredentials(NoCredentials.getInstance()).build().getService()) {
      admin.create(BucketInfo.of(name));
    } catch (Exception e) {
      throw new AssertionError("could not create bucket " + name, e);
    }
    return new BucketConfig(UUID.randomUUID(), UUID.randomUUID(), new CatalogName("gcs"),
        StoragePlatform.GCS, name, StoragePath.root(), Optional.of(endpoint), Optional.empty(),
        false, BucketCredentials.none(), false);
  }
}
