package io.floe.adapters.storage;

import io.floe.adapters.storage.shared.BucketPrefix;
import io.floe.adapters.storage.shared.StorageBulkhead;
import io.floe.application.port.out.RefusedLocationException;
import io.floe.domain.BucketConfig;
import io.floe.domain.CanonicalLocation;
import io.floe.domain.DomainException;
import io.floe.domain.StoragePath;
import io.floe.domain.StoragePlatform;
import java.util.Map;
import org.apache.iceberg.io.FileIO;
import org.apache.iceberg.io.InputFile;
import org.apache.iceberg.io.OutputFile;

/**
 * The server's metadata FileIO for one bucket, opening only what that bucket's configuration
 * allows: a canonical location ({@link CanonicalLocation}: no percent-encoding, dot or empty
 * segments), in the bucket, beneath the configuration's prefix. Anything else is refused with
 * {@link RefusedLocationException} before the platform's FileIO sees it, so no S3 key with a
 * dot segment and no file outside a local bucket is ever asked for. A store that cannot be
 * reached, is busy or refuses the server is reported as such, and a store's calls in flight are
 * bounded by its bulkhead ({@link UnreachableStorageFiles}).
 */
final class BucketScopedFileIO implements FileIO {
  private final BucketConfig bucket;
  private final FileIO delegate;
  private final UnreachableStorageFiles.Guard guard;

  BucketScopedFileIO(BucketConfig bucket, FileIO delegate) {
    this(bucket, delegate, new StorageBulkhead(StorageBulkhead.DEFAULT_CALLS_PER_BUCKET));
  }

  BucketScopedFileIO(BucketConfig bucket, FileIO delegate, StorageBulkhead bulkhead) {
    this.bucket = bucket;
    this.delegate = delegate;
    this.guard = new UnreachableStorageFiles.Guard(bucket, bulkhead);
  }

  @Override
  public InputFile newInputFile(String location) {
    return input(delegate.newInputFile(checked(location)));
  }

  @Override
  public InputFile newInputFile(String location, long length) {
    return input(delegate.newInputFile(checked(location), length));
  }

  @Override
  public OutputFile newOutputFile(String location) {
    OutputFile file = delegate.newOutputFile(checked(location));
    return remote() ? UnreachableStorageFiles.output(guard, file) : file;
  }

  @Override
  public void deleteFile(String location) {
    String checked = checked(location);
    if (!remote()) {
      delegate.deleteFile(checked);
      return;
    }
    UnreachableStorageFiles.unchecked(guard, "could not delete '" + checked + "'", () -> {
      delegate.deleteFile(checked);
      return null;
    });
  }

  private InputFile input(InputFile file) {
    return remote() ? UnreachableStorageFiles.input(guard, file) : file;
  }

  /** Files on a store across the network, whose connection can fail. */
  private boolean remote() {
    return bucket.platform() != StoragePlatform.LOCAL;
  }

  @Override
  public Map<String, String> properties() {
    return delegate.properties();
  }

  @Override
  public void initialize(Map<String, String> properties) {
    delegate.initialize(properties);
  }

  @Override
  public void close() {
    delegate.close();
  }

  /** Returns {@code location} unchanged when the bucket may open it; refuses it otherwise. */
  String checked(String location) {
    CanonicalLocation parsed;
    try {
      parsed = CanonicalLocation.parse(location);
    } catch (DomainException e) {
      throw new RefusedLocationException(e.getMessage());
    }
    StoragePath key = bucket.pathOf(parsed).orElseThrow(() -> new RefusedLocationException(
        "'" + parsed + "' is not in bucket configuration '" + bucket.nickname() + "'"));
    if (key.isRoot()) {
      throw new RefusedLocationException("'" + parsed + "' names a bucket, not a file");
    }
    BucketPrefix.require(bucket, key);
    return location;
  }
}
