package io.floe.application.port.out;

import io.floe.domain.BucketConfig;
import io.floe.domain.StoragePath;
import java.time.Instant;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * Short-lived storage credentials that reach one table's location and nothing else, so that
 * engines never hold the bucket's own keys.
 */
public interface CredentialVendor {

  /** What the credentials may do under the location. */
  enum Access { READ_ONLY, READ_WRITE }

  /**
   * Iceberg FileIO properties (keys, session token, region, endpoint, expiry) and the instant
   * they stop working.
   */
  record VendedCredentials(Map<String, String> config, Instant expiresAt) {
    public VendedCredentials {
      config = Map.copyOf(config);
      Objects.requireNonNull(expiresAt, "expiresAt");
    }
  }

  /**
   * Credentials for {@code location} and everything beneath it in {@code bucket}; empty when the
   * platform needs none (a local disk) or the bucket is not set up to vend them (for S3, no role
   * to assume). {@code requester} names the caller in the storage provider's audit log.
   */
  Optional<VendedCredentials> vend(BucketConfig bucket, StoragePath location, Access access,
      String requester);

  /**
   * The FileIO properties that make an engine's FileIO fetch fresh credentials from
   * {@code endpoint} (a path relative to the catalog's URI, the table's credentials route) before
   * the ones vended for {@code bucket} expire; empty for a platform whose FileIO cannot.
   */
  default Map<String, String> refreshConfig(BucketConfig bucket, String endpoint) {
    return Map.of();
  }
}
