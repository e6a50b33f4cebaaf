package io.floe.application.service.storage;

import io.floe.application.port.out.CredentialVendor.Access;
import io.floe.application.port.out.CredentialVendor.VendedCredentials;
import io.floe.application.security.Caller;
import io.floe.application.service.repo.objects.LocalRepoCredentials;
import io.floe.domain.BucketConfig;
import io.floe.domain.StoragePath;
import io.floe.domain.StoragePlatform;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;

/**
 * What a maintenance job running outside the server (a Spark job) gets to reach a table on a
 * local bucket: keys of Floe's own S3 endpoint for that table's prefix, and nothing that opens the
 * server's filesystem. A local bucket is a directory of the server, so an engine there would
 * otherwise read and delete whatever path the table's manifests name (another table's files, the
 * server's own data directory). The keys are the ones repos get ({@link LocalRepoCredentials}):
 * bound to one prefix, signed, and short-lived; the endpoint confines every key a request names
 * to that prefix. Alongside them the job's FileIO learns how the bucket's {@code file:} locations
 * map onto the endpoint's bucket ({@link #ROOT}, {@link #ENDPOINT_BUCKET}).
 */
public final class LocalBucketJobAccess {
  /** The {@code file:} URI of the bucket's directory: the part of a location a key replaces. */
  public static final String ROOT = "floe.local-bucket.root";
  /** The bucket that Floe's S3 endpoint serves the local buckets' objects as. */
  public static final String ENDPOINT_BUCKET = "floe.local-bucket.name";
  /** When the keys stop working, as Iceberg's S3 properties say it. */
  static final String EXPIRES_AT = "s3.session-token-expires-at-ms";

  /** Issues nothing: for servers and tests without a local bucket endpoint. */
  public static final LocalBucketJobAccess NONE = new LocalBucketJobAccess(null, "");

  private final LocalRepoCredentials keys;
  private final String endpointBucket;

  /** {@code endpointBucket}: the one bucket Floe's S3 endpoint serves. */
  public LocalBucketJobAccess(LocalRepoCredentials keys, String endpointBucket) {
    this.keys = keys;
    this.endpointBucket = endpointBucket;
  }

  /**
   * The FileIO configuration of a maintenance job's keys for the table at {@code location}, when
   * the caller is a maintenance job and the bucket a local one; empty for every other caller and
   * bucket (engines on a local bucket read its files themselves, as before).
   */
  public Optional<Map<String, String>> config(Caller caller, BucketConfig bucket,
      StoragePath location, Access access) {
    if (keys == null || caller.scope().isEmpty() || bucket.platform() != StoragePlatform.LOCAL) {
      return Optional.empty();
    }
    VendedCredentials issued = keys.issue(bucket, location, access, caller.principal().id());
    Map<String, String> config = new HashMap<>(issued.config());
    config.put(ROOT, bucket.uriOf(StoragePath.root()) + "/");
    config.put(ENDPOINT_BUCKET, endpointBucket);
    config.put(EXPIRES_AT, Long.toString(issued.expiresAt().toEpochMilli()));
    return Optional.of(Map.copyOf(config));
  }
}
