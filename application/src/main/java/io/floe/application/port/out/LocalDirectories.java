package io.floe.application.port.out;

/** Directories on the server's own disk, as far as the catalog needs to reason about them. */
public interface LocalDirectories {
  /**
   * Where an absolute directory path really leads: the real path of its nearest existing
   * ancestor, every symbolic link followed, with the rest of the path appended.
   */
  String realPath(String directory);
}
