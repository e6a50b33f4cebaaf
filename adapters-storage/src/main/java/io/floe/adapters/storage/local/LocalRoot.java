package io.floe.adapters.storage.local;

import io.floe.application.port.out.RefusedLocationException;
import io.floe.domain.StoragePath;
import java.nio.file.Path;

/**
 * A local bucket's directory. Resolves keys to files whose real path (every symbolic link
 * followed) lies beneath the directory's own real path, and creates directories there 0750.
 */
final class LocalRoot {
  private final Path root;
  /**
   * The root's real path, once the root exists. Kept, because it is half of every check: if the
   * directory were later replaced by a link, what lies behind the link would not match it and
   * would be refused, so keeping it can refuse more but never less.
   */
  private volatile Path realRoot;

  LocalRoot(Path root) {
    this.root = root.toAbsolutePath().normalize();
  }

  Path path() {
    return root;
  }

  /** The file or directory of {@code key}, refused when its real path leaves the root. */
  Path resolve(StoragePath key) {
    Path resolved = root.resolve(key.value()).normalize();
    if (!resolved.startsWith(root)) {
      throw new RefusedLocationException("key '" + key + "' escapes the local bucket " + root);
    }
    requireInside(resolved);
    return resolved;
  }

  /**
   * Refuses {@code path} unless its real path ({@link LocalPaths#realPath}) lies beneath the
   * root's real path.
   */
  void requireInside(Path path) {
    if (!LocalPaths.realPath(path).startsWith(realRoot())) {
      // The real path is not named: it would tell a caller where a link points.
      throw new RefusedLocationException("'" + path + "' resolves outside the local bucket "
          + root);
    }
  }

  private Path realRoot() {
    Path known = realRoot;
    if (known != null) {
      return known;
    }
    Path real = LocalPaths.realPath(root);
    if (java.nio.file.Files.isDirectory(root)) {
      realRoot = real;
    }
    return real;
  }

  /**
   * Creates {@code directory} and its missing parents, each 0750, and checks where it ended up.
   * An existing directory is checked too: it may be a link.
   */
  void createDirectories(Path directory) {
    LocalPaths.createDirectories(directory);
    requireInside(directory);
  }
}
