package io.floe.adapters.storage.s3;

import io.floe.adapters.storage.shared.VendedCredentialCache;
import io.floe.adapters.storage.shared.StorageFailures;
import io.floe.application.port.out.CredentialVendor;
import io.floe.domain.BucketConfig;
import io.floe.domain.StoragePath;
import io.floe.domain.StoragePlatform;
import java.net.URI;
import java.time.Clock;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;
import org.apache.iceberg.aws.AwsClientProperties;
import org.apache.iceberg.aws.s3.S3FileIOProperties;
import software.amazon.awssdk.core.exception.SdkException;
import software.amazon.awssdk.http.apache.ApacheHttpClient;
import software.amazon.awssdk.services.sts.StsClient;
import software.amazon.awssdk.services.sts.model.Credentials;

/**
 * Vends S3 credentials by assuming the bucket's role through STS with a session policy that
 * only reaches the table's prefix. A bucket without a role vends nothing: engines then need
 * another way in (remote signing).
 */
public final class S3CredentialVendor implements CredentialVendor {
  /** STS refuses sessions shorter than 15 minutes. */
  static final Duration MINIMUM_SESSION = Duration.ofMinutes(15);
  private static final int MAX_SESSION_NAME = 64;

  private final Function<BucketConfig, StsClient> stsClients;
  private final Duration sessionDuration;
  private final VendedCredentialCache cache;

  public S3CredentialVendor(Function<BucketConfig, StsClient> stsClients,
      Duration sessionDuration) {
    if (sessionDuration.compareTo(MINIMUM_SESSION) < 0) {
      throw new IllegalArgumentException("sessions last at least " + MINIMUM_SESSION);
    }
    this.stsClients = stsClients;
    this.sessionDuration = sessionDuration;
    this.cache = new VendedCredentialCache(sessionDuration, Clock.systemUTC());
  }

  /**
   * STS for a bucket: AWS's regional endpoint for S3, the bucket's own endpoint for
   * S3-compatible stores (MinIO, Ceph and moto serve STS beside S3).
   */
  public static StsClient stsClient(BucketConfig bucket) {
    var builder = StsClient.builder()
        .httpClientBuilder(ApacheHttpClient.builder())
        .region(S3Clients.region(bucket))
        .credentialsProvider(S3Clients.credentials(bucket.credentials()));
    if (bucket.platform() == StoragePlatform.S3_COMPATIBLE) {
      bucket.endpoint().ifPresent(endpoint -> builder.endpointOverride(URI.create(endpoint)));
    }
    return builder.build();
  }

  @Override
  public Optional<VendedCredentials> vend(BucketConfig bucket, StoragePath location,
      Access access, String requester) {
    if (bucket.credentials().roleArn().isEmpty()) {
      return Optional.empty();
    }
    return cache.get(bucket, location, access, requester,
        () -> assumeRole(bucket, location, access, requester));
  }

  private Optional<VendedCredentials> assumeRole(BucketConfig bucket, StoragePath location,
      Access access, String requester) {
    Optional<String> role = bucket.credentials().roleArn();
    String region = S3Clients.region(bucket).id();
    String policy = TableScopedPolicy.json(TableScopedPolicy.partition(region), bucket.bucket(),
        location, access);
    Credentials session;
    try {
      session = stsClients.apply(bucket).assumeRole(b -> b
          .roleArn(role.get())
          .roleSessionName(sessionName(requester))
          .policy(policy)
          .durationSeconds((int) sessionDuration.toSeconds())).credentials();
    } catch (SdkException e) {
      throw StorageFailures.of(bucket, "could not assume role " + role.get() + " for "
          + bucket.uriOf(location), e);
    }
    Map<String, String> config = new HashMap<>(S3MetadataFileIo.connectionProperties(bucket));
    config.put(S3FileIOProperties.ACCESS_KEY_ID, session.accessKeyId());
    config.put(S3FileIOProperties.SECRET_ACCESS_KEY, session.secretAccessKey());
    config.put(S3FileIOProperties.SESSION_TOKEN, session.sessionToken());
    config.put(S3FileIOProperties.SESSION_TOKEN_EXPIRES_AT_MS,
        Long.toString(session.expiration().toEpochMilli()));
    return Optional.of(new VendedCredentials(config, session.expiration()));
  }

  /**
   * Makes Iceberg's S3FileIO refresh what was vended through the table's credentials route
   * ({@code VendedCredentialsProvider}) instead of failing once the session expires.
   */
  public static Map<String, String> refreshConfig(String endpoint) {
    return Map.of(AwsClientProperties.REFRESH_CREDENTIALS_ENDPOINT, endpoint,
        AwsClientProperties.REFRESH_CREDENTIALS_ENABLED, "true");
  }

  /** STS session names allow letters, digits and {@code +=,.@-}, at most 64 characters. */
  static String sessionName(String requester) {
    String cleaned = (requester == null ? "" : requester).replaceAll("[^\\w+=,.@-]", "_");
    String name = "floe-" + cleaned;
    return name.length() > MAX_SESSION_NAME ? name.substring(0, MAX_SESSION_NAME) : name;
  }
}
