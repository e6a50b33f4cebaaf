package io.floe.application.iceberg;

import io.floe.domain.BucketConfig;
import io.floe.domain.CanonicalLocation;
import io.floe.domain.DomainException;
import io.floe.domain.StoragePath;
import java.util.Optional;

/**
 * The one rule of which files belong to a table: a location belongs to it when it is canonical
 * ({@link CanonicalLocation}: no percent-encoding, no {@code .}/{@code ..} or empty segments, the
 * bucket's own scheme), lies in the table's bucket, and is the table's root or beneath it,
 * segment-wise (so {@code <root>-evil/x} is not beneath {@code <root>}).
 *
 * <p>The server reads, rewrites and deletes a table's files with its own rights, so every such
 * file must pass this rule whatever a manifest or a metadata file says: a writer of one table
 * could otherwise name another table's files (or anything else in the bucket) in its manifests
 * and have the server read or delete them for it. Commits check the locations a metadata file
 * names; {@link TableScopedFileIO} checks every file the server opens for a table.
 */
public final class TableBoundary {
  private final BucketConfig bucket;
  private final String rootUri;
  private final StoragePath root;

  private TableBoundary(BucketConfig bucket, String rootUri, StoragePath root) {
    this.bucket = bucket;
    this.rootUri = rootUri;
    this.root = root;
  }

  /**
   * The boundary of the table whose root directory is {@code rootUri} in {@code bucket}.
   *
   * @throws IllegalStateException when the root itself is not a canonical location in the bucket
   *     (the server placed it, so that is a server fault)
   */
  public static TableBoundary of(BucketConfig bucket, String rootUri) {
    StoragePath root = bucket.pathOf(rootUri).orElseThrow(
        () -> new IllegalStateException("table root is not in its bucket: " + rootUri));
    return new TableBoundary(bucket, rootUri, root);
  }

  /** Whether {@code location} lies under the table's root in {@code bucket}. */
  public static boolean contains(BucketConfig bucket, String rootUri, String location) {
    return of(bucket, rootUri).contains(location);
  }

  /** Whether {@code location} lies under the table's root; a non-canonical one never does. */
  public boolean contains(String location) {
    Optional<StoragePath> path;
    try {
      path = location == null ? Optional.empty()
          : bucket.pathOf(CanonicalLocation.parse(location));
    } catch (DomainException notCanonical) {
      return false;
    }
    return path.isPresent() && path.get().isWithin(root);
  }

  /**
   * Returns {@code location} when it lies under the table's root.
   *
   * @throws ForeignTableFileException otherwise, naming the file and the root
   */
  public String require(String location) {
    if (!contains(location)) {
      throw new ForeignTableFileException(location, rootUri);
    }
    return location;
  }

  /** The URI of the table's root directory. */
  public String rootUri() {
    return rootUri;
  }
}
