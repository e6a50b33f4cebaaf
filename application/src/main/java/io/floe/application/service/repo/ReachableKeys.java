package io.floe.application.service.repo;

import io.floe.application.port.out.StorageException;
import io.floe.domain.BucketConfig;
import io.floe.domain.CanonicalLocation;
import io.floe.domain.DomainException;
import io.floe.domain.StoragePath;
import java.util.Collection;
import java.util.HashSet;
import java.util.Optional;
import java.util.Set;

/**
 * The keys of one bucket that a set of file URIs (as table metadata spells them) names. Object
 * stores are matched by bucket name whatever the scheme ({@code s3a://} names the same object as
 * {@code s3://}); a URI that cannot be read as a location stops the collection, since the object
 * it means cannot be told apart from garbage.
 */
public final class ReachableKeys {
  private final Set<StoragePath> keys = new HashSet<>();

  public ReachableKeys(BucketConfig bucket, Collection<String> uris) {
    Optional<CanonicalLocation> root = bucket.root();
    for (String uri : uris) {
      keyOf(bucket, root, uri).ifPresent(keys::add);
    }
  }

  public boolean contains(StoragePath key) {
    return keys.contains(key);
  }

  private static Optional<StoragePath> keyOf(BucketConfig bucket,
      Optional<CanonicalLocation> root, String uri) {
    CanonicalLocation location;
    try {
      location = CanonicalLocation.parse(uri);
    } catch (DomainException e) {
      throw new StorageException("A table file the repo's history reaches has a location Floe "
          + "cannot place, so nothing was collected: " + e.getMessage());
    }
    boolean objectStore = root.isPresent()
        && !root.get().scheme().equals(CanonicalLocation.FILE_SCHEME)
        && !location.scheme().equals(CanonicalLocation.FILE_SCHEME);
    return bucket.pathOf(objectStore
        ? new CanonicalLocation(root.get().scheme(), location.authority(), location.path())
        : location);
  }
}
