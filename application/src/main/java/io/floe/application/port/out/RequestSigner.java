package io.floe.application.port.out;

import io.floe.application.port.out.CredentialVendor.Access;
import io.floe.domain.BucketConfig;
import io.floe.domain.StoragePath;
import java.util.Map;
import org.apache.iceberg.rest.requests.RemoteSignRequest;
import org.apache.iceberg.rest.responses.RemoteSignResponse;

/**
 * Signs engines' storage requests with the server's own credentials (Iceberg REST remote
 * signing), for stores that cannot mint scoped credentials. Only requests that stay inside one
 * table's location, with a method its access allows, are signed.
 */
public interface RequestSigner {

  /** Whether requests to this bucket can be signed (S3 and S3-compatible with keys). */
  boolean canSign(BucketConfig bucket);

  /**
   * The FileIO properties that make an engine ask the catalog for signatures at
   * {@code signerEndpoint} (a path relative to the catalog's URI) and reach the bucket
   * (endpoint, region, addressing), without any credential.
   */
  Map<String, String> remoteSigningConfig(BucketConfig bucket, String signerEndpoint);

  /**
   * Signs {@code request} if its bucket is {@code bucket}, every key it touches lies beneath
   * {@code location}, and {@code access} allows what it does; otherwise throws Iceberg's
   * {@code ForbiddenException}.
   */
  RemoteSignResponse sign(BucketConfig bucket, StoragePath location, Access access,
      RemoteSignRequest request);
}
