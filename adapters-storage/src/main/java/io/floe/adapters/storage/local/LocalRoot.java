package io.floe.adapters.storage.local;

import io.floe.application.port.out.RefusedLocationException;
import io.floe.domain.StoragePath;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import org.apache.iceberg.exceptions.BadRequestException;

/**
 * A local bucket's directory. Resolves keys to files whose real path (every symbolic link
 * followed) lies beneath the directory's own real path, and creates directories there 0750.
 */
final class LocalRoot {
  /** The longest file name (one key segment) the file systems Floe runs on store. */
  static final int MAX_NAME_BYTES = 255;
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

  /**
   * The file or directory of {@code key}, refused when its real path leaves the root, or when a
   * segment is longer than a file name may be.
   */
  Path resolve(StoragePath key) {
    requireNamesFit(key.value());
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
    requireNamesFit(path.toString());
    if (!LocalPaths.realPath(path).startsWith(realRoot())) {
      // The real path is not named: it would tell a caller where a link points.
      throw new RefusedLocationException("'" + path + "' resolves outside the local bucket "
          + root);
    }
  }

  /**
   * The file system's own limit (NAME_MAX): a file name is at most {@value #MAX_NAME_BYTES}
   * bytes, so no key with a longer segment can be stored here, read or listed. The one check for
   * every key and location of a local bucket, refused as the client's error (S3 would store it,
   * so it is this bucket's limit, said as such) rather than failing on the file system.
   */
  static void requireNamesFit(String path) {
    if (path.length() <= MAX_NAME_BYTES / 3) {
      return; // at most three bytes per char in UTF-8
    }
    for (String segment : path.split("/")) {
      int bytes = segment.getBytes(StandardCharsets.UTF_8).length;
      if (bytes > MAX_NAME_BYTES) {
        throw new BadRequestException("A key segment of a local bucket is at most %s bytes in "
            + "UTF-8 (the file system's limit on a file name); one has %s", MAX_NAME_BYTES,
            bytes);
      }
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
