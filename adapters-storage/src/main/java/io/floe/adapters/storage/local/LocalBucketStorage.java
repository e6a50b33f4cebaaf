package io.floe.adapters.storage.local;

import io.floe.application.port.out.BucketStorage;
import io.floe.application.port.out.ListedObject;
import io.floe.application.port.out.StorageException;
import io.floe.application.port.out.StoredObject;
import io.floe.domain.StoragePath;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.BasicFileAttributes;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.locks.ReentrantLock;
import java.util.stream.Stream;

/**
 * A bucket that is a directory on the local filesystem. Writes go to a temporary file first and
 * are renamed into place, so a reader never sees half an object; conditional writes hold an
 * exclusive lock (in this process and, through a lock file, across processes) around the
 * compare and the rename. An object's version is the SHA-256 of its content.
 *
 * <p>Keys never reach outside the directory: each is resolved to its real path, symbolic links
 * followed, and refused ({@link io.floe.application.port.out.RefusedLocationException}) unless
 * that lies beneath the directory's real path. What is written is 0640, directories 0750.
 */
public final class LocalBucketStorage implements BucketStorage {
  /** Lock and temporary files live here, out of every prefix a catalog object can claim. */
  static final String HOUSEKEEPING_DIR = ".floe-local";

  /**
   * The in-process half of the lock, by lock file: shared by every instance on the same
   * directory, since a JVM may hold a file lock only once (a second thread asking for it fails
   * with OverlappingFileLockException instead of waiting).
   */
  private static final ConcurrentHashMap<Path, ReentrantLock> KEY_LOCKS = new ConcurrentHashMap<>();

  private final LocalRoot local;
  private final Path root;
  private final Set<Path> checkedHousekeeping = ConcurrentHashMap.newKeySet();

  public LocalBucketStorage(Path root) {
    this.local = new LocalRoot(root);
    this.root = local.path();
  }

  @Override
  public Optional<StoredObject> get(StoragePath key) {
    try {
      byte[] data = Files.readAllBytes(existingFileOf(key));
      return Optional.of(new StoredObject(data, versionOf(data)));
    } catch (NoSuchFileException e) {
      return Optional.empty();
    } catch (IOException e) {
      throw failure("read", key, e);
    }
  }

  @Override
  public Optional<byte[]> getRange(StoragePath key, long offset, int length) {
    Path file = existingFileOf(key);
    try (InputStream in = Files.newInputStream(file)) {
      in.skipNBytes(Math.min(offset, Files.size(file)));
      return Optional.of(in.readNBytes(length));
    } catch (NoSuchFileException e) {
      return Optional.empty();
    } catch (IOException e) {
      throw failure("read", key, e);
    }
  }

  @Override
  public void put(StoragePath key, byte[] data) {
    Path target = fileOf(key);
    try {
      Path temp = writeTemp(data);
      Files.move(temp, target, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
      LocalPaths.syncDirectory(target.getParent());
    } catch (IOException e) {
      throw failure("write", key, e);
    }
  }

  @Override
  public boolean putIfAbsent(StoragePath key, byte[] data) {
    Path target = fileOf(key);
    Path temp = null;
    try {
      temp = writeTemp(data);
      // A hard link is created atomically and fails if the target exists: create-if-absent.
      Files.createLink(target, temp);
      LocalPaths.syncDirectory(target.getParent());
      return true;
    } catch (FileAlreadyExistsException e) {
      return false;
    } catch (IOException e) {
      throw failure("write", key, e);
    } finally {
      deleteQuietly(temp);
    }
  }

  @Override
  public boolean putIfVersion(StoragePath key, byte[] data, String expectedVersion) {
    Path target = fileOf(key);
    Path lockPath;
    try {
      lockPath = lockFileOf(key);
    } catch (IOException e) {
      throw failure("write", key, e);
    }
    ReentrantLock lock = KEY_LOCKS.computeIfAbsent(lockPath, k -> new ReentrantLock());
    lock.lock();
    try (FileChannel lockFile = FileChannel.open(lockPath,
        Set.of(StandardOpenOption.CREATE, StandardOpenOption.WRITE),
        LocalPaths.fileAttributes());
        FileLock ignored = lockFile.lock()) {
      Optional<StoredObject> current = get(key);
      if (current.isEmpty() || !current.get().version().equals(expectedVersion)) {
        return false;
      }
      Path temp = writeTemp(data);
      Files.move(temp, target, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
      LocalPaths.syncDirectory(target.getParent());
      return true;
    } catch (IOException e) {
      throw failure("write", key, e);
    } finally {
      lock.unlock();
    }
  }

  @Override
  public boolean exists(StoragePath key) {
    return Files.isRegularFile(existingFileOf(key));
  }

  @Override
  public List<StoragePath> list(StoragePath prefix, int limit) {
    Path dir = directoryOf(prefix);
    if (!Files.isDirectory(dir)) {
      return List.of();
    }
    try (Stream<Path> files = Files.walk(dir)) {
      List<StoragePath> keys = new ArrayList<>();
      files.filter(Files::isRegularFile)
          .map(this::keyOf)
          .filter(key -> !key.value().startsWith(HOUSEKEEPING_DIR + "/"))
          .sorted((a, b) -> a.value().compareTo(b.value()))
          .limit(limit)
          .forEach(keys::add);
      return keys;
    } catch (NoSuchFileException e) {
      return List.of();
    } catch (IOException e) {
      throw failure("list", prefix, e);
    }
  }

  @Override
  public void prepareLocation(StoragePath location) {
    try {
      Files.createDirectories(directoryOf(location));
    } catch (IOException e) {
      throw failure("create the directory", location, e);
    }
  }

  @Override
  public List<ListedObject> listObjects(StoragePath prefix, int limit) {
    List<ListedObject> out = new ArrayList<>();
    for (StoragePath key : list(prefix, limit)) {
      try {
        BasicFileAttributes attributes = Files.readAttributes(directoryOf(key),
            BasicFileAttributes.class);
        out.add(new ListedObject(key, attributes.size(),
            attributes.lastModifiedTime().toInstant()));
      } catch (NoSuchFileException e) {
        // Deleted since the listing: no longer stored, so not listed.
      } catch (IOException e) {
        throw failure("list", prefix, e);
      }
    }
    return out;
  }

  @Override
  public void delete(StoragePath key) {
    try {
      Files.deleteIfExists(existingFileOf(key));
    } catch (IOException e) {
      throw failure("delete", key, e);
    }
  }

  @Override
  public long deleteUnder(StoragePath prefix) {
    if (prefix.isRoot()) {
      throw new IllegalArgumentException("refusing to delete a whole bucket");
    }
    Path dir = directoryOf(prefix);
    if (!Files.exists(dir)) {
      return 0;
    }
    try (Stream<Path> paths = Files.walk(dir)) {
      List<Path> deepestFirst = paths.sorted((a, b) -> b.getNameCount() - a.getNameCount()).toList();
      long files = 0;
      for (Path path : deepestFirst) {
        if (Files.isRegularFile(path)) {
          files++;
        }
        Files.deleteIfExists(path);
      }
      return files;
    } catch (IOException e) {
      throw failure("delete", prefix, e);
    }
  }

  @Override
  public String uri(StoragePath key) {
    return key.isRoot() ? root.toUri().toString() : root.resolve(key.value()).toUri().toString();
  }

  /** Resolves a key to a file, creating its parent directories, and never outside the root. */
  private Path fileOf(StoragePath key) {
    if (key.isRoot()) {
      throw new IllegalArgumentException("an object key must not be empty");
    }
    Path file = directoryOf(key);
    local.createDirectories(file.getParent());
    return file;
  }

  /** Resolves a key to read or delete: checked like {@link #fileOf}, creating nothing. */
  private Path existingFileOf(StoragePath key) {
    if (key.isRoot()) {
      throw new IllegalArgumentException("an object key must not be empty");
    }
    return directoryOf(key);
  }

  private Path directoryOf(StoragePath prefix) {
    return local.resolve(prefix);
  }

  private StoragePath keyOf(Path file) {
    return new StoragePath(root.relativize(file).toString().replace('\\', '/'));
  }

  /**
   * A directory of Floe's own bookkeeping, created and checked once: nothing but this adapter
   * writes there, so one check per bucket and process is enough.
   */
  private Path housekeeping(String name) {
    Path directory = root.resolve(HOUSEKEEPING_DIR).resolve(name);
    if (!checkedHousekeeping.contains(directory)) {
      local.createDirectories(directory);
      checkedHousekeeping.add(directory);
    }
    return directory;
  }

  private Path lockFileOf(StoragePath key) throws IOException {
    Path locks = housekeeping("locks");
    return locks.resolve(versionOf(key.value().getBytes(java.nio.charset.StandardCharsets.UTF_8)));
  }

  private Path writeTemp(byte[] data) throws IOException {
    Path temps = housekeeping("tmp");
    Path temp = temps.resolve(UUID.randomUUID().toString());
    try (FileChannel out = FileChannel.open(temp, Set.of(StandardOpenOption.CREATE_NEW,
        StandardOpenOption.WRITE, LinkOption.NOFOLLOW_LINKS),
        LocalPaths.fileAttributes())) {
      LocalPaths.restrict(temp, LocalPaths.FILE_MODE);
      ByteBuffer buffer = ByteBuffer.wrap(data);
      while (buffer.hasRemaining()) {
        out.write(buffer);
      }
      // On disk before it is renamed into place: a rename that survives a power loss must not
      // name a file whose contents did not.
      out.force(true);
    }
    return temp;
  }

  private static void deleteQuietly(Path path) {
    if (path != null) {
      try {
        Files.deleteIfExists(path);
      } catch (IOException ignored) {
        // A stray temporary file is harmless; the next cleanup of the directory removes it.
      }
    }
  }

  static String versionOf(byte[] data) {
    try {
      return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(data));
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException(e);
    }
  }

  private StorageException failure(String verb, StoragePath key, IOException cause) {
    return new StorageException("could not " + verb + " '" + key + "' in local bucket " + root
        + ": " + cause.getMessage(), cause);
  }

}
