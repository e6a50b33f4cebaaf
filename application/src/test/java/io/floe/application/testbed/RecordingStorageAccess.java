package io.floe.application.testbed;

import io.floe.application.port.out.CredentialVendor;
import io.floe.application.port.out.RequestSigner;
import io.floe.domain.BucketConfig;
import io.floe.domain.StoragePath;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.iceberg.rest.requests.RemoteSignRequest;
import org.apache.iceberg.rest.responses.ImmutableRemoteSignResponse;
import org.apache.iceberg.rest.responses.RemoteSignResponse;

/**
 * Buckets that vend credentials and sign requests, as S3 with a role to assume and S3-compatible
 * stores do, and remember each grant: the location, what it allows and for whom. A vended
 * credential's config names the access it was made for ({@value #ACCESS}), so a test sees what an
 * engine would hold.
 */
public final class RecordingStorageAccess implements CredentialVendor, RequestSigner {
  /** The config key of a vended credential that names its access. */
  public static final String ACCESS = "test.access";
  /** The config key a vended credential names its refresh endpoint with (as S3 does). */
  public static final String REFRESH_ENDPOINT = "client.refresh-credentials-endpoint";
  /** The config key remote signing adds, with the endpoint the engine is to call. */
  public static final String SIGNER_ENDPOINT = "s3.signer.endpoint";

  /** One credential vended or one request signed. */
  public record Grant(String kind, StoragePath location, Access access, String requester) {}

  private final Clock clock;
  private final boolean vends;
  private final boolean signs;
  private final List<Grant> grants = new ArrayList<>();

  /** {@code vends}: the buckets vend credentials; {@code signs}: they take signed requests. */
  public RecordingStorageAccess(Clock clock, boolean vends, boolean signs) {
    this.clock = clock;
    this.vends = vends;
    this.signs = signs;
  }

  @Override
  public synchronized Optional<VendedCredentials> vend(BucketConfig bucket, StoragePath location,
      Access access, String requester) {
    if (!vends) {
      return Optional.empty();
    }
    grants.add(new Grant("vend", location, access, requester));
    return Optional.of(new VendedCredentials(Map.of("s3.access-key-id", "key-" + requester,
        ACCESS, access.name()), clock.instant().plus(Duration.ofHours(1))));
  }

  @Override
  public Map<String, String> refreshConfig(BucketConfig bucket, String endpoint) {
    return Map.of(REFRESH_ENDPOINT, endpoint);
  }

  @Override
  public boolean canSign(BucketConfig bucket) {
    return signs;
  }

  @Override
  public Map<String, String> remoteSigningConfig(BucketConfig bucket, String endpoint) {
    return Map.of("s3.remote-signing-enabled", "true", SIGNER_ENDPOINT, endpoint);
  }

  @Override
  public synchronized RemoteSignResponse sign(BucketConfig bucket, StoragePath location,
      Access access, RemoteSignRequest request) {
    grants.add(new Grant("sign", location, access, ""));
    return ImmutableRemoteSignResponse.builder().uri(request.uri())
        .headers(Map.of("Authorization", List.of("signed " + access.name()))).build();
  }

  /** Every credential vended and request signed so far, oldest first. */
  public synchronized List<Grant> grants() {
    return List.copyOf(grants);
  }
}
