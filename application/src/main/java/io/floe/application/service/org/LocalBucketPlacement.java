package io.floe.application.service.org;

import io.floe.application.model.Invalid;
import io.floe.application.port.out.LocalDirectories;
import io.floe.application.port.out.OrgStore;
import io.floe.domain.BucketConfig;
import io.floe.domain.CanonicalLocation;
import io.floe.domain.DomainException;
import io.floe.domain.StoragePlatform;
import java.util.List;
import java.util.Objects;
import org.apache.iceberg.exceptions.AlreadyExistsException;
import org.apache.iceberg.exceptions.ForbiddenException;

/**
 * Where a local bucket may live, decided in this one place: a local bucket is a directory on the
 * server's own disk, so it must lie beneath one of the roots the operator configured, and no two
 * local buckets (of any orgs) may share, contain or lie inside one another's directory.
 * Directories are compared by their real paths, symbolic links followed, so a link cannot
 * smuggle one bucket into another. Who may place one (operators only) is the callers' check.
 */
public final class LocalBucketPlacement {
  private final List<String> roots;
  private final OrgStore orgs;
  private final LocalDirectories directories;

  /** @param roots absolute directories under which local buckets may be placed */
  public LocalBucketPlacement(List<String> roots, OrgStore orgs, LocalDirectories directories) {
    this.roots = List.copyOf(roots);
    this.orgs = Objects.requireNonNull(orgs, "orgs");
    this.directories = Objects.requireNonNull(directories, "directories");
    if (this.roots.isEmpty()) {
      throw new IllegalArgumentException("at least one local bucket root is needed");
    }
  }

  /**
   * Refuses a local bucket outside every root (403) or overlapping another local bucket (409);
   * other platforms pass. Call it inside the transaction that stores the bucket: it takes the
   * lock that orders placements, so two overlapping ones cannot both pass.
   */
  public void requirePlaceable(BucketConfig bucket) {
    if (bucket.platform() != StoragePlatform.LOCAL) {
      return;
    }
    String directory = realDirectory(bucket);
    if (roots.stream().map(directories::realPath).noneMatch(root -> beneath(directory, root))) {
      throw new ForbiddenException("Local bucket '%s' is not beneath a directory the operator "
          + "allows for local buckets (floe serve --local-bucket-root): %s", bucket.bucket(),
          String.join(", ", roots));
    }
    orgs.lockLocalBucketPlacement();
    for (BucketConfig other : orgs.bucketsOn(StoragePlatform.LOCAL)) {
      if (!other.id().equals(bucket.id()) && overlaps(directory, realDirectoryOf(other))) {
        // The other bucket is not named: it may belong to another org.
        throw new AlreadyExistsException("Local bucket '%s' would share, contain or lie inside "
            + "the directory of another local bucket", bucket.bucket());
      }
    }
  }

  private String realDirectory(BucketConfig bucket) {
    CanonicalLocation location;
    try {
      location = CanonicalLocation.parse(bucket.bucket());
    } catch (DomainException e) {
      throw Invalid.because("A local bucket must be an absolute directory in canonical form: "
          + e.getMessage());
    }
    if (!location.scheme().equals(CanonicalLocation.FILE_SCHEME) || location.path().isRoot()) {
      throw Invalid.because("A local bucket must be an absolute directory other than '/'");
    }
    return directories.realPath("/" + location.path().value());
  }

  /** Stored buckets are compared as they are, even if made before the canonical rule. */
  private String realDirectoryOf(BucketConfig bucket) {
    return directories.realPath(bucket.bucket());
  }

  private static boolean beneath(String directory, String root) {
    return directory.startsWith(root.endsWith("/") ? root : root + "/");
  }

  private static boolean overlaps(String a, String b) {
    return a.equals(b) || beneath(a, b) || beneath(b, a);
  }
}
