package io.floe.adapters.storage.local;

import io.floe.application.port.out.RefusedLocationException;
import io.floe.application.port.out.StorageException;
import io.floe.domain.StoragePath;
import java.io.IOException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.attribute.FileAttribute;
import java.nio.file.attribute.PosixFileAttributeView;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.Set;

/**
 * A local bucket's directory. Resolves keys to files whose real path (every symbolic link
 * followed) lies beneath the directory's own real path, and creates what Floe writes there for
 * its owner and group only: directories 0750, files 0640, whatever the process's umask.
 */
final class LocalRoot {
  static final Set<PosixFilePermission> DIRECTORY_MODE = PosixFilePermissions.fromString(
      "rwxr-x---");
  static final Set<PosixFilePermission> FILE_MODE = PosixFilePermissions.fromString("rw-r-----");

  private static final boolean POSIX = java.nio.file.FileSystems.getDefault()
      .supportedFileAttributeViews().contains("posix");

  private final Path root;

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
   * Refuses {@code path} unless the real path of its nearest existing ancestor (the path itself
   * when it exists) lies beneath the root's real path. A dangling link is refused outright: a
   * write through it would create its target, wherever that is.
   */
  void requireInside(Path path) {
    Path realRoot = realPath(root);
    Path real = realPath(path);
    if (!real.startsWith(realRoot)) {
      // The real path is not named: it would tell a caller where a link points.
      throw new RefusedLocationException("'" + path + "' resolves outside the local bucket "
          + root);
    }
  }

  /** Creates {@code directory} and its missing parents, each 0750, and checks where it ended. */
  void createDirectories(Path directory) {
    Deque<Path> missing = new ArrayDeque<>();
    for (Path p = directory; p != null && !Files.exists(p, LinkOption.NOFOLLOW_LINKS);
        p = p.getParent()) {
      missing.push(p);
    }
    for (Path p : missing) {
      try {
        Files.createDirectory(p, directoryAttributes());
        restrict(p, DIRECTORY_MODE);
      } catch (FileAlreadyExistsException e) {
        // Created concurrently; the check below decides whether it may be used.
      } catch (IOException e) {
        throw new StorageException("could not create directory " + p + ": " + e.getMessage(), e);
      }
    }
    requireInside(directory);
  }

  static FileAttribute<?>[] fileAttributes() {
    return posix() ? new FileAttribute<?>[] {PosixFilePermissions.asFileAttribute(FILE_MODE)}
        : new FileAttribute<?>[0];
  }

  private static FileAttribute<?>[] directoryAttributes() {
    return posix() ? new FileAttribute<?>[] {PosixFilePermissions.asFileAttribute(DIRECTORY_MODE)}
        : new FileAttribute<?>[0];
  }

  /** Sets the mode exactly: a creation attribute is still narrowed by the umask. */
  static void restrict(Path path, Set<PosixFilePermission> mode) throws IOException {
    if (posix()) {
      Files.getFileAttributeView(path, PosixFileAttributeView.class, LinkOption.NOFOLLOW_LINKS)
          .setPermissions(mode);
    }
  }

  private static boolean posix() {
    return POSIX;
  }

  /** The real path of the nearest existing ancestor of {@code path}, with the rest appended. */
  private static Path realPath(Path path) {
    Deque<Path> rest = new ArrayDeque<>();
    Path existing = path;
    while (existing != null && !Files.exists(existing, LinkOption.NOFOLLOW_LINKS)) {
      rest.push(existing.getFileName());
      existing = existing.getParent();
    }
    if (existing == null) {
      throw new RefusedLocationException("no part of '" + path + "' exists");
    }
    Path real;
    try {
      real = existing.toRealPath();
    } catch (NoSuchFileException e) {
      throw new RefusedLocationException("'" + existing + "' is a link to nothing");
    } catch (IOException e) {
      throw new StorageException("could not resolve " + existing + ": " + e.getMessage(), e);
    }
    for (Path name : rest) {
      real = real.resolve(name);
    }
    return real;
  }
}
