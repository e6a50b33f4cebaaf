package io.floe.adapters.storage;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.floe.application.port.out.BucketStorage;
import io.floe.application.port.out.RefusedLocationException;
import io.floe.domain.BucketConfig;
import io.floe.domain.StoragePath;
import java.util.Locale;
import java.util.UUID;
import org.apache.iceberg.io.FileIO;

/**
 * What an object-store adapter must refuse for a configuration with a prefix: locations that are
 * not canonical, in another bucket, or outside the prefix, through the metadata FileIO, and keys
 * and listings outside the prefix, through bucket storage; shown with nothing written.
 */
public final class PrefixConfinement {
  private PrefixConfinement() {}

  /** Checks {@code adapters} on {@code bucket} (a configuration without prefix) of {@code scheme}. */
  public static void show(StorageAdapters adapters, BucketConfig bucket, String scheme) {
    BucketConfig prefixed = new BucketConfig(UUID.randomUUID(), bucket.orgId(),
        bucket.nickname(), bucket.platform(), bucket.bucket(), new StoragePath("floe"),
        bucket.endpoint(), bucket.region(), bucket.pathStyle(), bucket.credentials(), false);
    String base = scheme + "://" + bucket.bucket();
    FileIO io = adapters.fileIo(prefixed);
    for (String location : new String[] {
        base + "/floe/../escaped/x.json", base + "/floe/%2e%2e/escaped/x.json",
        base + "/floe/./x.json", base + "/floe//x.json", base + "/escaped/x.json",
        scheme + "://other/floe/x.json", base.toUpperCase(Locale.ROOT) + "/floe/x.json",
        scheme + "a://" + bucket.bucket() + "/floe/x.json"}) {
      assertThatThrownBy(() -> io.newOutputFile(location).createOrOverwrite().close())
          .as(location).isInstanceOf(RefusedLocationException.class);
    }
    BucketStorage storage = adapters.open(prefixed);
    assertThatThrownBy(() -> storage.put(new StoragePath("escaped/x.json"), new byte[1]))
        .isInstanceOf(RefusedLocationException.class);
    assertThatThrownBy(() -> storage.list(StoragePath.root(), 10))
        .isInstanceOf(RefusedLocationException.class);
    assertThat(adapters.open(bucket).list(new StoragePath("escaped"), 10)).isEmpty();
  }
}
