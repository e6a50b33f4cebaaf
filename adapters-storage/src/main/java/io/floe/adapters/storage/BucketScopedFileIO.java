package io.floe.adapters.storage;

import io.floe.adapters.storage.shared.BucketPrefix;
import io.floe.application.port.out.RefusedLocationException;
import io.floe.domain.BucketConfig;
import io.floe.domain.CanonicalLocation;
import io.floe.domain.DomainException;
import io.floe.domain.StoragePath;
import java.util.Map;
import org.apache.iceberg.io.FileIO;
import org.apache.iceberg.io.InputFile;
import org.apache.iceberg.io.OutputFile;

/**
 * The server's metadata FileIO for one bucket, opening only what that bucket's configuration
 * allows: a canonical location ({@link CanonicalLocation}: no percent-encoding, dot or empty
 * segments), in the bucket, beneath the configuration's prefix. Anything else is refused with
 * {@link RefusedLocationException} before the platform's FileIO sees it, so no S3 key with a
 * dot segment and no file outside a local bucket is ever asked for.
 */
final class BucketScopedFileIO implements FileIO {
  private final BucketConfig bucket;
  private final FileIO delegate;

  BucketScopedFileIO(BucketConfig bucket, FileIO delegate) {
    this.bucket = bucket;
    this.delegate = delegate;
  }

  @Override
  public InputFile newInputFile(String location) {
    return delegate.newInputFile(checked(location));
  }

  @Override
  public InputFile newInputFile(String location, long length) {
    return delegate.newInputFile(checked(location), length);
  }

  @Override
  public OutputFile newOutputFile(String location) {
    return delegate.newOutputFile(checked(location));
  }

  @Override
  public void deleteFile(String location) {
    delegate.deleteFile(checked(location));
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
