package io.floe.adapters.storage.local;

import io.floe.application.port.out.LocalDirectories;
import io.floe.application.port.out.RefusedLocationException;
import io.floe.application.port.out.StorageException;
import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.FileAttribute;
import java.nio.file.attribute.PosixFileAttributeView;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.Set;

/**
 * Paths on the server's own disk: where they really lead, and directories created for the owner
 * and group only (0750; files Floe writes are 0640), whatever the process's umask.
 */
public final class LocalPaths implements LocalDirectories {
  static final Set<PosixFilePermission> DIRECTORY_MODE =
      PosixFilePermissions.fromString("rwxr-x---");
  static final Set<PosixFilePermission> FILE_MODE = PosixFilePermissions.fromString("rw-r-----");
  private static final boolean POSIX =
      FileSystems.getDefault().supportedFileAttributeViews().contains("posix");

  @Override
  public String realPath(String directory) {
    return realPath(Path.of(directory).toAbsolutePath().normalize()).toString();
  }

  /**
   * The real path of the nearest existing ancestor of {@code path} (the path itself when it
   * exists), every link followed, with the rest of {@code path} appended. A dangling link is
   * refused outright: a write through it would create its target, wherever that is.
   */
  public static Path realPath(Path path) {
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

  /** Creates {@code directory} and its missing parents, each 0750; false if none was missing. */
  public static boolean createDirectories(Path directory) {
    Deque<Path> missing = new ArrayDeque<>();
    for (Path p = directory.toAbsolutePath().normalize();
        p != null && !Files.exists(p, LinkOption.NOFOLLOW_LINKS); p = p.getParent()) {
      missing.push(p);
    }
    for (Path p : missing) {
      try {
        Files.createDirectory(p, directoryAttributes());
        restrict(p, DIRECTORY_MODE);
        syncDirectory(p.getParent()); // the new entry survives a power loss
      } catch (FileAlreadyExistsException e) {
        // Created concurrently: fine, the caller checks where it leads.
      } catch (IOException e) {
        throw new StorageException("could not create directory " + p + ": " + e.getMessage(), e);
      }
    }
    return !missing.isEmpty();
  }

  /**
   * Forces {@code directory}'s entries to disk, so that a file created, linked or renamed into it
   * is still there after a power loss (the file's own contents are forced separately). Where the
   * platform cannot open a directory for this (Windows), the file system's own ordering is all
   * there is.
   */
  static void syncDirectory(Path directory) throws IOException {
    if (!POSIX || directory == null) {
      return;
    }
    try (FileChannel channel = FileChannel.open(directory, StandardOpenOption.READ)) {
      channel.force(true);
    }
  }

  static FileAttribute<?>[] fileAttributes() {
    return POSIX ? new FileAttribute<?>[] {PosixFilePermissions.asFileAttribute(FILE_MODE)}
        : new FileAttribute<?>[0];
  }

  private static FileAttribute<?>[] directoryAttributes() {
    return POSIX ? new FileAttribute<?>[] {PosixFilePermissions.asFileAttribute(DIRECTORY_MODE)}
        : new FileAttribute<?>[0];
  }

  /** Sets the mode exactly: a creation attribute is still narrowed by the umask. */
  static void restrict(Path path, Set<PosixFilePermission> mode) throws IOException {
    if (POSIX) {
      Files.getFileAttributeView(path, PosixFileAttributeView.class, LinkOption.NOFOLLOW_LINKS)
          .setPermissions(mode);
    }
  }
}
