package io.floe.adapters.storage.gcs;

import com.google.cloud.storage.Storage;
import io.floe.domain.BucketConfig;
import java.util.HashMap;
import java.util.Map;
import org.apache.iceberg.gcp.GCPProperties;
import org.apache.iceberg.gcp.gcs.GCSFileIO;
import org.apache.iceberg.io.FileIO;

/**
 * Iceberg's GCSFileIO with the server's own access to a bucket, and the GCSFileIO properties
 * engines need to reach the same bucket.
 */
public final class GcsMetadataFileIo {
  private GcsMetadataFileIo() {}

  /** The FileIO gets a client of its own, built like {@link GcsBucketStorage}'s. */
  public static FileIO open(BucketConfig bucket) {
    Storage client = GcsClients.storage(bucket);
    GCSFileIO io = new GCSFileIO(() -> client);
    io.initialize(connectionProperties(bucket));
    return io;
  }

  /** Where the bucket is, without any credential. */
  public static Map<String, String> connectionProperties(BucketConfig bucket) {
    Map<String, String> properties = new HashMap<>();
    bucket.endpoint().ifPresent(endpoint ->
        properties.put(GCPProperties.GCS_SERVICE_HOST, endpoint));
    return properties;
  }
}
