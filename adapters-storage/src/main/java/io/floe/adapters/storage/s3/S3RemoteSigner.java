package io.floe.adapters.storage.s3;

import io.floe.application.port.out.CredentialVendor.Access;
import io.floe.application.port.out.RequestSigner;
import io.floe.domain.BucketConfig;
import io.floe.domain.BucketCredentials;
import io.floe.domain.StoragePath;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.iceberg.aws.s3.S3FileIOProperties;
import org.apache.iceberg.rest.RESTCatalogProperties;
import org.apache.iceberg.rest.requests.RemoteSignRequest;
import org.apache.iceberg.rest.responses.ImmutableRemoteSignResponse;
import org.apache.iceberg.rest.responses.RemoteSignResponse;
import software.amazon.awssdk.auth.credentials.AwsCredentialsProvider;
import software.amazon.awssdk.http.ContentStreamProvider;
import software.amazon.awssdk.http.SdkHttpMethod;
import software.amazon.awssdk.http.SdkHttpRequest;
import software.amazon.awssdk.http.auth.aws.signer.AwsV4HttpSigner;
import software.amazon.awssdk.http.auth.spi.signer.SignedRequest;

/**
 * Signs S3 requests for engines with the server's own credentials (SigV4), after {@link
 * S3SigningRules} has confirmed the request stays inside the table, binding the signature to
 * what was checked ({@link S3SignedPayload}): a body the catalog read is signed by its hash.
 */
public final class S3RemoteSigner implements RequestSigner {
  /**
   * Set by the client's HTTP stack, or by the signer itself: never signed as given. The host in
   * particular comes from the checked URI, never from a header that could name another bucket.
   */
  private static final Set<String> UNSIGNED_HEADERS = Set.of("host", "authorization",
      "x-amz-date", "x-amz-security-token", "connection", "user-agent", "expect",
      "amz-sdk-invocation-id", "amz-sdk-request", "amz-sdk-retry");

  private static final String PYICEBERG_SIGNER = "s3.signer";
  private static final String PYICEBERG_REST_SIGNER = "S3V4RestSigner";
  private static final String PYICEBERG_SIGNER_ENDPOINT = "s3.signer.endpoint";

  private final AwsV4HttpSigner signer = AwsV4HttpSigner.create();
  private final Map<BucketCredentials, AwsCredentialsProvider> identities =
      new ConcurrentHashMap<>();

  @Override
  public boolean canSign(BucketConfig bucket) {
    return switch (bucket.platform()) {
      case S3, S3_COMPATIBLE -> bucket.credentials().kind() != BucketCredentials.Kind.NONE;
      default -> false;
    };
  }

  /** Iceberg Java's S3FileIO and PyIceberg's fsspec FileIO name the same settings apart. */
  @Override
  public Map<String, String> remoteSigningConfig(BucketConfig bucket, String signerEndpoint) {
    Map<String, String> config = new HashMap<>(S3MetadataFileIo.connectionProperties(bucket));
    config.put(S3FileIOProperties.REMOTE_SIGNING_ENABLED, "true");
    config.put(RESTCatalogProperties.SIGNER_ENDPOINT, signerEndpoint);
    config.put(PYICEBERG_SIGNER, PYICEBERG_REST_SIGNER);
    config.put(PYICEBERG_SIGNER_ENDPOINT, signerEndpoint);
    return config;
  }

  @Override
  public RemoteSignResponse sign(BucketConfig bucket, StoragePath location, Access access,
      RemoteSignRequest request) {
    if (!canSign(bucket)) {
      throw S3RequestTarget.refused("this table's bucket takes no signed requests");
    }
    if (request.provider() != null && !request.provider().equals("s3")) {
      throw S3RequestTarget.refused("provider '" + request.provider() + "' is not signed");
    }
    S3RequestTarget target = S3RequestTarget.parse(request.uri(), bucket);
    S3SigningRules.check(target, location, access, request);
    Map<String, List<String>> headers = headersToSign(request.headers());
    S3SignedPayload payload = S3SignedPayload.of(request.body(), headers);

    SdkHttpRequest.Builder unsigned = SdkHttpRequest.builder()
        .method(SdkHttpMethod.fromValue(request.method().toUpperCase(Locale.ROOT)))
        .uri(request.uri());
    // Under the names the client used: it sends its own spelling alongside the signed one.
    request.headers().keySet().stream()
        .filter(name -> headers.containsKey(name.toLowerCase(Locale.ROOT)))
        .forEach(name -> unsigned.putHeader(name, headers.get(name.toLowerCase(Locale.ROOT))));
    SignedRequest signed = signer.sign(r -> {
      r.identity(identity(bucket).resolveCredentials())
          .request(unsigned.build())
          .putProperty(AwsV4HttpSigner.SERVICE_SIGNING_NAME, "s3")
          .putProperty(AwsV4HttpSigner.REGION_NAME, S3Clients.region(bucket).id())
          // S3 signs the path as sent.
          .putProperty(AwsV4HttpSigner.DOUBLE_URL_ENCODE, false)
          .putProperty(AwsV4HttpSigner.NORMALIZE_PATH, false)
          // A body the catalog checked is signed by its hash; engines stream the others, which
          // the catalog never sees.
          .putProperty(AwsV4HttpSigner.PAYLOAD_SIGNING_ENABLED, payload.body().isPresent());
      payload.body().ifPresent(body -> r.payload(ContentStreamProvider.fromByteArray(body)));
    });
    Map<String, List<String>> signedHeaders = new HashMap<>(signed.request().headers());
    return ImmutableRemoteSignResponse.builder()
        .uri(request.uri())
        .headers(signedHeaders)
        .build();
  }

  /**
   * The client's headers that are signed, by lower-case name. A name given twice in different
   * cases is refused: the two values could be read differently by the signer and the store.
   */
  private static Map<String, List<String>> headersToSign(Map<String, List<String>> given) {
    Map<String, List<String>> headers = new LinkedHashMap<>();
    given.forEach((name, values) -> {
      String lower = name.toLowerCase(Locale.ROOT);
      if (headers.containsKey(lower) || (values.isEmpty() && !UNSIGNED_HEADERS.contains(lower))) {
        throw S3RequestTarget.refused("header '" + name + "' is given twice or without a value");
      }
      headers.put(lower, List.copyOf(values));
    });
    UNSIGNED_HEADERS.forEach(headers::remove);
    return headers;
  }

  private AwsCredentialsProvider identity(BucketConfig bucket) {
    return identities.computeIfAbsent(bucket.credentials(), S3Clients::credentials);
  }
}
