package io.floe.bootstrap;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Set;

/** Files holding secrets (the admin token, the sealing key): readable by their owner only. */
final class OwnerOnlyFiles {
  private OwnerOnlyFiles() {}

  /**
   * Writes {@code secret} and a newline, mode 600, never briefly readable by others and never
   * half-written: a temporary file is written, flushed to disk, then moved into place.
   */
  static void write(Path file, String secret) {
    try {
      Path temp = file.resolveSibling(file.getFileName() + ".tmp");
      Files.deleteIfExists(temp);
      try {
        Files.createFile(temp, PosixFilePermissions.asFileAttribute(
            PosixFilePermissions.fromString("rw-------")));
      } catch (UnsupportedOperationException e) {
        Files.createFile(temp);
      }
      try (FileChannel channel = FileChannel.open(temp, StandardOpenOption.WRITE)) {
        channel.write(StandardCharsets.UTF_8.encode(secret + "\n"));
        channel.force(true);
      }
      Files.move(temp, file, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
    } catch (IOException e) {
      throw new UncheckedIOException("could not write " + file, e);
    }
  }

  /** Whether anyone but the owner may read the file (false where permissions are not POSIX). */
  static boolean readableByOthers(Path file) {
    try {
      Set<PosixFilePermission> permissions = Files.getPosixFilePermissions(file);
      return permissions.contains(PosixFilePermission.GROUP_READ)
          || permissions.contains(PosixFilePermission.OTHERS_READ);
    } catch (UnsupportedOperationException | IOException e) {
      return false;
    }
  }
}
