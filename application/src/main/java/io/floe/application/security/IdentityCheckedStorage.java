package io.floe.application.security;

import io.floe.application.port.out.BucketStorage;
import io.floe.application.port.out.BucketStorageProvider;
import io.floe.application.port.out.CredentialVendor;
import io.floe.application.port.out.MetadataFileIoProvider;
import io.floe.application.port.out.RequestSigner;
import io.floe.application.port.out.StreamingBucketStorage;
import io.floe.domain.BucketConfig;
import io.floe.domain.StoragePath;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.iceberg.io.FileIO;
import org.apache.iceberg.rest.requests.RemoteSignRequest;
import org.apache.iceberg.rest.responses.RemoteSignResponse;

/**
 * The storage ports with {@link BucketIdentityPolicy} applied each time a bucket configuration
 * is used, whenever it was stored: nothing reaches a bucket's storage, its credentials or its
 * signatures before its identity and destinations pass. A configuration that passed is not
 * checked again for a minute (its hosts are looked up again after that).
 */
public final class IdentityCheckedStorage implements BucketStorageProvider,
    MetadataFileIoProvider, CredentialVendor, RequestSigner {
  static final Duration RECHECK_AFTER = Duration.ofMinutes(1);
  private static final int REMEMBERED = 1_000;

  private final BucketStorageProvider buckets;
  private final MetadataFileIoProvider fileIos;
  private final CredentialVendor vendor;
  private final RequestSigner signer;
  private final BucketIdentityPolicy policy;
  private final Clock clock;
  /** Configurations that passed, until when; read on every storage call, so lock-free. */
  private final Map<BucketConfig, Instant> passed = new ConcurrentHashMap<>();

  private IdentityCheckedStorage(BucketStorageProvider buckets, MetadataFileIoProvider fileIos,
      CredentialVendor vendor, RequestSigner signer, BucketIdentityPolicy policy, Clock clock) {
    this.buckets = Objects.requireNonNull(buckets, "buckets");
    this.fileIos = Objects.requireNonNull(fileIos, "fileIos");
    this.vendor = Objects.requireNonNull(vendor, "vendor");
    this.signer = Objects.requireNonNull(signer, "signer");
    this.policy = Objects.requireNonNull(policy, "policy");
    this.clock = Objects.requireNonNull(clock, "clock");
  }

  /** {@code storage}, an adapter offering all four ports, behind the policy. */
  public static <S extends BucketStorageProvider & MetadataFileIoProvider & CredentialVendor
      & RequestSigner> IdentityCheckedStorage of(S storage, BucketIdentityPolicy policy,
      Clock clock) {
    return new IdentityCheckedStorage(storage, storage, storage, storage, policy, clock);
  }

  @Override
  public BucketStorage open(BucketConfig bucket) {
    return buckets.open(usable(bucket));
  }

  @Override
  public Optional<StreamingBucketStorage> streaming(BucketConfig bucket) {
    return buckets.streaming(usable(bucket));
  }

  @Override
  public FileIO fileIo(BucketConfig bucket) {
    return fileIos.fileIo(usable(bucket));
  }

  @Override
  public Optional<VendedCredentials> vend(BucketConfig bucket, StoragePath location,
      Access access, String requester) {
    return vendor.vend(usable(bucket), location, access, requester);
  }
  /** Properties only: the endpoint is the catalog's own route, no destination of the bucket's. */
  @Override
  public Map<String, String> refreshConfig(BucketConfig bucket, String endpoint) {
    return vendor.refreshConfig(bucket, endpoint);
  }


  @Override
  public boolean canSign(BucketConfig bucket) {
    return signer.canSign(usable(bucket));
  }

  @Override
  public Map<String, String> remoteSigningConfig(BucketConfig bucket, String signerEndpoint) {
    return signer.remoteSigningConfig(usable(bucket), signerEndpoint);
  }

  @Override
  public RemoteSignResponse sign(BucketConfig bucket, StoragePath location, Access access,
      RemoteSignRequest request) {
    return signer.sign(usable(bucket), location, access, request);
  }

  private BucketConfig usable(BucketConfig bucket) {
    Instant now = clock.instant();
    Instant until = passed.get(bucket);
    if (until != null && now.isBefore(until)) {
      return bucket;
    }
    policy.requireUsable(bucket);
    if (passed.size() >= REMEMBERED) {
      passed.clear(); // changed configurations pile up only slowly: start over
    }
    passed.put(bucket, now.plus(RECHECK_AFTER));
    return bucket;
  }
}
