package io.floe.adapters.storage.s3;

import io.floe.adapters.storage.shared.StorageTimeouts;
import io.floe.domain.BucketConfig;
import io.floe.domain.BucketCredentials;
import java.net.URI;
import software.amazon.awssdk.awscore.retry.AwsRetryStrategy;
import software.amazon.awssdk.core.client.config.ClientOverrideConfiguration;
import software.amazon.awssdk.auth.credentials.AnonymousCredentialsProvider;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.AwsCredentialsProvider;
import software.amazon.awssdk.auth.credentials.DefaultCredentialsProvider;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.core.checksums.RequestChecksumCalculation;
import software.amazon.awssdk.core.checksums.ResponseChecksumValidation;
import software.amazon.awssdk.http.apache.ApacheHttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.LegacyMd5Plugin;
import software.amazon.awssdk.services.s3.S3Configuration;

/**
 * Builds AWS SDK clients that reach a bucket the way its configuration says, with every call
 * bounded in time ({@link StorageTimeouts}), retries included.
 */
public final class S3Clients {
  /** S3-compatible stores ignore the region, but the SDK must sign for one. */
  static final String DEFAULT_REGION = "us-east-1";

  private S3Clients() {}

  public static S3Client s3(BucketConfig bucket) {
    var builder = S3Client.builder()
        // Named explicitly: the SDK finds two HTTP clients on the classpath (Iceberg's S3FileIO
        // wants the Apache one) and must not pick one by chance.
        .httpClientBuilder(ApacheHttpClient.builder()
            .connectionTimeout(StorageTimeouts.CONNECT)
            .socketTimeout(StorageTimeouts.ATTEMPT)
            .connectionAcquisitionTimeout(StorageTimeouts.CONNECT))
        .overrideConfiguration(ClientOverrideConfiguration.builder()
            .apiCallAttemptTimeout(StorageTimeouts.ATTEMPT)
            .apiCallTimeout(StorageTimeouts.CALL)
            .retryStrategy(AwsRetryStrategy.standardRetryStrategy().toBuilder()
                .maxAttempts(StorageTimeouts.ATTEMPTS).build())
            .build())
        .region(region(bucket))
        .credentialsProvider(credentials(bucket.credentials()))
        .serviceConfiguration(S3Configuration.builder()
            .pathStyleAccessEnabled(bucket.pathStyle())
            .build());
    bucket.endpoint().ifPresent(endpoint -> builder
        .endpointOverride(URI.create(endpoint))
        // Since SDK 2.30 every upload carries a flexible checksum in a chunked trailer, which
        // S3-compatible stores do not all understand; send checksums only where S3 requires one.
        .requestChecksumCalculation(RequestChecksumCalculation.WHEN_REQUIRED)
        .responseChecksumValidation(ResponseChecksumValidation.WHEN_REQUIRED)
        // Batch deletes need a checksum; S3-compatible stores know Content-MD5, not CRC32.
        .addPlugin(LegacyMd5Plugin.create()));
    return builder.build();
  }

  public static Region region(BucketConfig bucket) {
    return Region.of(bucket.region().orElse(DEFAULT_REGION));
  }

  /** The server's own identity for the bucket: never handed to engines. */
  public static AwsCredentialsProvider credentials(BucketCredentials credentials) {
    return switch (credentials.kind()) {
      case STATIC -> StaticCredentialsProvider.create(AwsBasicCredentials.create(
          credentials.accessKeyId().orElseThrow(() -> missing("access key id")),
          credentials.secretAccessKey().orElseThrow(() -> missing("secret access key"))));
      case AMBIENT -> DefaultCredentialsProvider.builder().build();
      case NONE -> AnonymousCredentialsProvider.create();
    };
  }

  private static IllegalArgumentException missing(String what) {
    return new IllegalArgumentException("static bucket credentials without a " + what);
  }
}
