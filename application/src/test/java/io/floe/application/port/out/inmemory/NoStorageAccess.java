package io.floe.application.port.out.inmemory;

import io.floe.application.port.out.CredentialVendor;
import io.floe.application.port.out.RequestSigner;
import io.floe.domain.BucketConfig;
import io.floe.domain.StoragePath;
import java.util.Map;
import java.util.Optional;
import org.apache.iceberg.exceptions.ForbiddenException;
import org.apache.iceberg.rest.requests.RemoteSignRequest;
import org.apache.iceberg.rest.responses.RemoteSignResponse;

/** Storage access for tests whose buckets vend no credentials and sign no requests. */
public final class NoStorageAccess {
  private NoStorageAccess() {}

  public static CredentialVendor vendor() {
    return (bucket, location, access, requester) -> Optional.empty();
  }

  public static RequestSigner signer() {
    return new RequestSigner() {
      @Override
      public boolean canSign(BucketConfig bucket) {
        return false;
      }

      @Override
      public Map<String, String> remoteSigningConfig(BucketConfig bucket, String endpoint) {
        return Map.of();
      }

      @Override
      public RemoteSignResponse sign(BucketConfig bucket, StoragePath location,
          CredentialVendor.Access access, RemoteSignRequest request) {
        throw new ForbiddenException("this bucket takes no signed requests");
      }
    };
  }
}
