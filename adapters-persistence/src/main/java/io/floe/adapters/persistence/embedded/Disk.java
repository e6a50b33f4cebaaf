package io.floe.adapters.persistence.embedded;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.BasicFileAttributes;
import java.nio.file.attribute.PosixFilePermissions;

/**
 * File operations that survive a power loss: a file is written beside its target, flushed, and
 * renamed over it; a rename is flushed in its directory.
 */
final class Disk {
  private Disk() {}

  /** Replaces {@code file} with {@code content}, readable by the owner only (mode 600). */
  static void writePrivately(Path file, String content) {
    try {
      Path temp = file.resolveSibling(file.getFileName() + ".tmp");
      Files.deleteIfExists(temp);
      Files.createFile(temp, PosixFilePermissions.asFileAttribute(
          PosixFilePermissions.fromString("rw-------")));
      try (FileChannel channel = FileChannel.open(temp, StandardOpenOption.WRITE)) {
        channel.write(java.nio.ByteBuffer.wrap(content.getBytes(StandardCharsets.UTF_8)));
        channel.force(true);
      }
      rename(temp, file);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot write " + file, e);
    }
  }

  /** Renames atomically, replacing what {@code target} was, and flushes the directory. */
  static void rename(Path source, Path target) {
    try {
      Files.move(source, target, StandardCopyOption.ATOMIC_MOVE,
          StandardCopyOption.REPLACE_EXISTING);
      syncDirectory(target.toAbsolutePath().getParent());
    } catch (IOException e) {
      throw new UncheckedIOException("cannot rename " + source + " to " + target, e);
    }
  }

  /** Flushes a directory's entries, so that a rename or a new file in it outlives a power loss. */
  static void syncDirectory(Path directory) {
    try (FileChannel channel = FileChannel.open(directory, StandardOpenOption.READ)) {
      channel.force(true);
    } catch (IOException e) {
      // Some platforms cannot open a directory for reading; their renames are as durable as the
      // file system makes them.
    }
  }

  static void deleteRecursively(Path root) {
    if (!Files.exists(root, java.nio.file.LinkOption.NOFOLLOW_LINKS)) {
      return;
    }
    try {
      Files.walkFileTree(root, new SimpleFileVisitor<>() {
        @Override
        public FileVisitResult visitFile(Path file, BasicFileAttributes attributes)
            throws IOException {
          Files.deleteIfExists(file);
          return FileVisitResult.CONTINUE;
        }

        @Override
        public FileVisitResult visitFileFailed(Path file, IOException e) throws IOException {
          if (e instanceof NoSuchFileException) {
            return FileVisitResult.CONTINUE;
          }
          throw e;
        }

        @Override
        public FileVisitResult postVisitDirectory(Path directory, IOException e)
            throws IOException {
          Files.deleteIfExists(directory);
          return FileVisitResult.CONTINUE;
        }
      });
    } catch (IOException e) {
      throw new UncheckedIOException("cannot delete " + root, e);
    }
  }
}
