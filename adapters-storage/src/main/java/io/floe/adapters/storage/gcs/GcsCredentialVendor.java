package io.floe.adapters.storage.gcs;

import com.google.auth.oauth2.AccessToken;
import com.google.auth.oauth2.GoogleCredentials;
import io.floe.adapters.storage.shared.VendedCredentialCache;
import io.floe.adapters.storage.shared.StorageFailures;
import io.floe.application.port.out.CredentialVendor;
import io.floe.domain.BucketConfig;
import io.floe.domain.StoragePath;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;
import org.apache.iceberg.gcp.GCPProperties;

/**
 * Vends GCS access tokens downscoped to one table with a Credential Access Boundary, exchanged
 * from the server's own token. A bucket reached without credentials vends nothing.
 */
public final class GcsCredentialVendor implements CredentialVendor {
  private static final String CLOUD_PLATFORM = "https://www.googleapis.com/auth/cloud-platform";
  /** Downscoped tokens live as long as their source, an hour for Google's access tokens. */
  public static final Duration TOKEN_LIFETIME = Duration.ofHours(1);

  private final Function<BucketConfig, Optional<GoogleCredentials>> sources;
  private final GoogleTokenExchange exchange;
  private final VendedCredentialCache cache =
      new VendedCredentialCache(TOKEN_LIFETIME, Clock.systemUTC());

  /** Tokens exchanged at Google's STS, from the credentials each bucket configuration names. */
  public GcsCredentialVendor() {
    this(GcsCredentialVendor::serverCredentials, GoogleTokenExchange.GOOGLE_STS);
  }

  GcsCredentialVendor(Function<BucketConfig, Optional<GoogleCredentials>> sources,
      URI tokenExchange) {
    this.sources = sources;
    this.exchange = new GoogleTokenExchange(tokenExchange);
  }

  @Override
  public Optional<VendedCredentials> vend(BucketConfig bucket, StoragePath location,
      Access access, String requester) {
    return cache.get(bucket, location, access, requester,
        () -> sources.apply(bucket).map(source -> downscope(source, bucket, location, access)));
  }

  private VendedCredentials downscope(GoogleCredentials source, BucketConfig bucket,
      StoragePath location, Access access) {
    AccessToken sourceToken;
    try {
      source.refreshIfExpired();
      sourceToken = source.getAccessToken();
    } catch (IOException e) {
      throw StorageFailures.of(bucket, "could not get the server's Google token for "
          + bucket.uriOf(location), new UncheckedIOException(e));
    }
    GoogleTokenExchange.Token token = exchange.downscope(sourceToken.getTokenValue(),
        TableAccessBoundary.json(bucket.bucket(), location, access));
    Instant expiresAt = token.expiresAt()
        .or(() -> Optional.ofNullable(sourceToken.getExpirationTime()).map(d -> d.toInstant()))
        .orElse(Instant.now().plus(TOKEN_LIFETIME));
    Map<String, String> config = new HashMap<>(GcsMetadataFileIo.connectionProperties(bucket));
    config.put(GCPProperties.GCS_OAUTH2_TOKEN, token.value());
    config.put(GCPProperties.GCS_OAUTH2_TOKEN_EXPIRES_AT,
        Long.toString(expiresAt.toEpochMilli()));
    return new VendedCredentials(config, expiresAt);
  }

  /** The server's own identity, scoped for Cloud Storage; none for anonymous buckets. */
  private static Optional<GoogleCredentials> serverCredentials(BucketConfig bucket) {
    if (!(GcsClients.credentials(bucket) instanceof GoogleCredentials google)) {
      return Optional.empty();
    }
    return Optional.of(google.createScoped(CLOUD_PLATFORM));
  }

  /**
   * Makes Iceberg's GCSFileIO refresh the vended token through the table's credentials route
   * ({@code OAuth2RefreshCredentialsHandler}) instead of failing once it expires.
   */
  public static Map<String, String> refreshConfig(String endpoint) {
    return Map.of(GCPProperties.GCS_OAUTH2_REFRESH_CREDENTIALS_ENDPOINT, endpoint,
        GCPProperties.GCS_OAUTH2_REFRESH_CREDENTIALS_ENABLED, "true");
  }
}
