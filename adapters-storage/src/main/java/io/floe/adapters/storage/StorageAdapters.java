package io.floe.adapters.storage;

import com.google.cloud.storage.Storage;
import io.floe.adapters.storage.gcs.GcsBucketStorage;
import io.floe.adapters.storage.gcs.GcsClients;
import io.floe.adapters.storage.gcs.GcsCredentialVendor;
import io.floe.adapters.storage.gcs.GcsMetadataFileIo;
import io.floe.adapters.storage.local.LocalBucketStorage;
import io.floe.adapters.storage.local.LocalFileIO;
import io.floe.adapters.storage.s3.S3BucketStorage;
import io.floe.adapters.storage.s3.S3Clients;
import io.floe.adapters.storage.s3.S3CredentialVendor;
import io.floe.adapters.storage.s3.S3MetadataFileIo;
import io.floe.adapters.storage.s3.S3RemoteSigner;
import io.floe.adapters.storage.shared.StorageBulkhead;
import io.floe.application.port.out.BucketStorage;
import io.floe.application.port.out.BucketStorageProvider;
import io.floe.application.port.out.CredentialVendor;
import io.floe.application.port.out.MetadataFileIoProvider;
import io.floe.application.port.out.RequestSigner;
import io.floe.application.port.out.StreamingBucketStorage;
import io.floe.domain.BucketConfig;
import io.floe.domain.StoragePath;
import io.floe.domain.StoragePlatform;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import org.apache.iceberg.io.FileIO;
import org.apache.iceberg.rest.requests.RemoteSignRequest;
import org.apache.iceberg.rest.responses.RemoteSignResponse;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.sts.StsClient;

/**
 * Opens object storage and Iceberg FileIO, vends table-scoped credentials and signs engines'
 * requests, for each platform a bucket can be on. Clients and FileIOs are kept per bucket: they
 * hold connection pools.
 */
public final class StorageAdapters implements BucketStorageProvider, MetadataFileIoProvider,
    CredentialVendor, RequestSigner, AutoCloseable {
  /** How long vended credentials last; engines refresh them through the credentials route. */
  public static final Duration DEFAULT_CREDENTIAL_LIFETIME = Duration.ofHours(1);
  /**
   * How long a SigV4 signature the remote signer makes stays good: S3 accepts a signed request
   * up to 15 minutes after the time it carries.
   */
  public static final Duration SIGNATURE_VALIDITY = Duration.ofMinutes(15);

  private final StorageBulkhead bulkhead;
  private final ClientCache<FileIO> fileIos = new ClientCache<>(this::newFileIo);
  private final ClientCache<S3Client> s3Clients = new ClientCache<>(S3Clients::s3);
  private final ClientCache<Storage> gcsClients = new ClientCache<>(GcsClients::storage);
  private final ClientCache<StsClient> stsClients =
      new ClientCache<>(S3CredentialVendor::stsClient);
  private final S3CredentialVendor s3Vendor;
  private final S3RemoteSigner s3Signer = new S3RemoteSigner();
  private final GcsCredentialVendor gcsVendor = new GcsCredentialVendor();

  public StorageAdapters() {
    this(DEFAULT_CREDENTIAL_LIFETIME);
  }

  public StorageAdapters(Duration credentialLifetime) {
    this(credentialLifetime, StorageBulkhead.DEFAULT_CALLS_PER_BUCKET);
  }

  /**
   * @param callsPerBucket how many of the server's calls may be in flight to one bucket's store
   *     at once ({@link StorageBulkhead}); more are refused at once as unavailable storage
   */
  public StorageAdapters(Duration credentialLifetime, int callsPerBucket) {
    this.bulkhead = new StorageBulkhead(callsPerBucket);
    this.s3Vendor = new S3CredentialVendor(stsClients::get, credentialLifetime);
  }

  /**
   * The longest that any write access the adapters hand out lasts with {@code credentialLifetime}
   * (the server's is {@link #DEFAULT_CREDENTIAL_LIFETIME}): vended S3 and GCS credentials, local
   * repos' sessions and remote-signing signatures. A file written with one may be committed
   * until then, so orphan removal must never take a file that young.
   */
  public static Duration longestWriteAccess(Duration credentialLifetime) {
    return java.util.stream.Stream.of(credentialLifetime, GcsCredentialVendor.TOKEN_LIFETIME,
        SIGNATURE_VALIDITY).max(Duration::compareTo).orElseThrow();
  }

  @Override
  public BucketStorage open(BucketConfig bucket) {
    return switch (bucket.platform()) {
      case LOCAL -> new LocalBucketStorage(Path.of(bucket.bucket()));
      case S3, S3_COMPATIBLE -> new BulkheadedBucketStorage(
          new S3BucketStorage(s3Clients.get(bucket), bucket), bucket, bulkhead);
      case GCS -> new BulkheadedBucketStorage(
          new GcsBucketStorage(gcsClients.get(bucket), bucket), bucket, bulkhead);
      default -> throw new UnsupportedPlatformException(bucket);
    };
  }

  /** Local buckets are served over Floe's own S3 endpoint, from their files. */
  @Override
  public Optional<StreamingBucketStorage> streaming(BucketConfig bucket) {
    return bucket.platform() == StoragePlatform.LOCAL
        ? Optional.of(new LocalBucketStorage(Path.of(bucket.bucket()))) : Optional.empty();
  }

  @Override
  public FileIO fileIo(BucketConfig bucket) {
    return fileIos.get(bucket);
  }

  /** The platform's FileIO behind the one guard every platform shares. */
  private FileIO newFileIo(BucketConfig bucket) {
    return new BucketScopedFileIO(bucket, switch (bucket.platform()) {
      case LOCAL -> new LocalFileIO(Path.of(bucket.bucket()));
      case S3, S3_COMPATIBLE -> S3MetadataFileIo.open(bucket);
      case GCS -> GcsMetadataFileIo.open(bucket);
      default -> throw new UnsupportedPlatformException(bucket);
    }, bulkhead);
  }

  /** Local buckets are the server's own disk: engines on the same machine need no keys. */
  @Override
  public Optional<VendedCredentials> vend(BucketConfig bucket, StoragePath location,
      Access access, String requester) {
    return switch (bucket.platform()) {
      case LOCAL -> Optional.empty();
      case S3, S3_COMPATIBLE -> s3Vendor.vend(bucket, location, access, requester);
      case GCS -> gcsVendor.vend(bucket, location, access, requester);
      default -> throw new UnsupportedPlatformException(bucket);
    };
  }

  @Override
  public Map<String, String> refreshConfig(BucketConfig bucket, String endpoint) {
    return switch (bucket.platform()) {
      case S3, S3_COMPATIBLE -> S3CredentialVendor.refreshConfig(endpoint);
      case GCS -> GcsCredentialVendor.refreshConfig(endpoint);
      default -> Map.of();
    };
  }

  @Override
  public boolean canSign(BucketConfig bucket) {
    return s3Signer.canSign(bucket);
  }

  @Override
  public Map<String, String> remoteSigningConfig(BucketConfig bucket, String signerEndpoint) {
    return canSign(bucket) ? s3Signer.remoteSigningConfig(bucket, signerEndpoint) : Map.of();
  }

  @Override
  public RemoteSignResponse sign(BucketConfig bucket, StoragePath location, Access access,
      RemoteSignRequest request) {
    return s3Signer.sign(bucket, location, access, request);
  }

  @Override
  public void close() {
    fileIos.close();
    s3Clients.close();
    gcsClients.close();
    stsClients.close();
  }
}
