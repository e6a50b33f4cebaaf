package io.floe.adapters.storage.gcs;

import com.google.auth.Credentials;
import com.google.auth.oauth2.GoogleCredentials;
import com.google.auth.oauth2.ServiceAccountCredentials;
import com.google.cloud.NoCredentials;
import com.google.cloud.http.HttpTransportOptions;
import com.google.cloud.storage.Storage;
import com.google.cloud.storage.StorageOptions;
import io.floe.adapters.storage.shared.StorageTimeouts;
import io.floe.application.port.out.StorageException;
import io.floe.domain.BucketConfig;
import io.floe.domain.BucketCredentials;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;

/**
 * Builds Google Cloud Storage clients that reach a bucket the way its configuration says, each
 * call bounded in time like S3's ({@link StorageTimeouts#CALL}, retries included).
 */
public final class GcsClients {
  private GcsClients() {}

  public static Storage storage(BucketConfig bucket) {
    StorageOptions.Builder options = StorageOptions.http()
        .setCredentials(credentials(bucket))
        .setTransportOptions(HttpTransportOptions.newBuilder()
            .setConnectTimeout((int) StorageTimeouts.CONNECT.toMillis())
            .setReadTimeout((int) StorageTimeouts.ATTEMPT.toMillis())
            .build())
        .setRetrySettings(StorageOptions.getDefaultRetrySettings().toBuilder()
            .setMaxAttempts(StorageTimeouts.ATTEMPTS)
            .setTotalTimeoutDuration(StorageTimeouts.CALL)
            .build());
    bucket.endpoint().ifPresent(options::setHost);
    return options.build().getService();
  }

  /**
   * The server's own identity: the environment's (application default credentials), a service
   * account key given as JSON in the secret, or none (emulators, public buckets).
   */
  static Credentials credentials(BucketConfig bucket) {
    BucketCredentials credentials = bucket.credentials();
    try {
      return switch (credentials.kind()) {
        case AMBIENT -> GoogleCredentials.getApplicationDefault();
        case STATIC -> ServiceAccountCredentials.fromStream(new ByteArrayInputStream(
            credentials.secretAccessKey().orElseThrow(() -> new IllegalArgumentException(
                "static GCS credentials need a service account key (JSON) as the secret"))
                .getBytes(StandardCharsets.UTF_8)));
        case NONE -> NoCredentials.getInstance();
      };
    } catch (IOException e) {
      throw new StorageException("no usable Google credentials for bucket configuration '"
          + bucket.nickname() + "': " + e.getMessage(), e);
    }
  }
}
