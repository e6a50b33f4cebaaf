package io.floe.adapters.storage.local;

import io.floe.application.model.PreconditionFailedException;
import io.floe.application.model.StoredObjectContent;
import io.floe.application.model.StoredObjectInfo;
import io.floe.application.model.WritePrecondition;
import io.floe.application.port.out.BucketStorage;
import io.floe.application.port.out.ListedObject;
import io.floe.application.port.out.RefusedLocationException;
import io.floe.application.port.out.StorageException;
import io.floe.application.port.out.StoredObject;
import io.floe.application.port.out.StreamingBucketStorage;
import io.floe.domain.StoragePath;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.FileSystemException;
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
import org.apache.iceberg.exceptions.BadRequestException;

/**
 * A bucket that is a directory on the local filesystem. Writes go to a temporary file first and
 * are renamed into place, so a reader never sees half an object; conditional writes hold an
 * exclusive lock (in this process and, through a lock file, across processes) around the
 * compare and the rename. An object's version is the SHA-256 of its content.
 *
 * <p>Keys never reach outside the directory: each is resolved to its real path, symbolic links
 * followed, and refused ({@link io.floe.application.port.out.RefusedLocationException}) unless
 * that lies beneath the directory's real path. What is written is 0640, directories 0750.
 *
 * <p>As {@link StreamingBucketStorage} it serves Floe's S3 endpoint: objects stream to and from
 * their files, and an object's entity tag names the file itself (its inode, size and time of last
 * write), which every write replaces by renaming a new file into place, so the tag changes with
 * every write and is read without reading the object.
 */
public final class LocalBucketStorage implements BucketStorage, StreamingBucketStorage {
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
      Path file = existingFileOf(key);
      if (Files.isDirectory(file, LinkOption.NOFOLLOW_LINKS)) {
        // A prefix of other objects, not an object: there is nothing of that name to delete.
        return;
      }
      Files.deleteIfExists(file);
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

  @Override
  public Optional<StoredObjectInfo> stat(StoragePath key) {
    Path file = existingFileOf(key);
    try {
      return Optional.of(infoOf(key, readRegularFile(file)));
    } catch (NoSuchFileException e) {
      return Optional.empty();
    } catch (IOException e) {
      throw failure("read", key, e);
    }
  }

  @Override
  public Optional<StoredObjectContent> read(StoragePath key, long offset, long length) {
    Path file = existingFileOf(key);
    // The tag and the bytes must be of one file: a write renames a new file into place, so the
    // file opened is the one whose attributes were read on both sides of the open.
    for (int attempt = 0; attempt < 3; attempt++) {
      InputStream in = null;
      try {
        BasicFileAttributes before = readRegularFile(file);
        in = Files.newInputStream(file, LinkOption.NOFOLLOW_LINKS);
        BasicFileAttributes after = readRegularFile(file);
        if (!sameFile(before, after)) {
          in.close();
          continue;
        }
        long size = after.size();
        long start = Math.min(Math.max(offset, 0), size);
        long count = length < 0 ? size - start : Math.min(length, size - start);
        in.skipNBytes(start);
        InputStream bounded = new BoundedInputStream(in, count);
        in = null;
        return Optional.of(new StoredObjectContent(infoOf(key, after), start, count, bounded));
      } catch (NoSuchFileException e) {
        return Optional.empty();
      } catch (IOException e) {
        throw failure("read", key, e);
      } finally {
        closeQuietly(in);
      }
    }
    throw new StorageException("'" + key + "' in local bucket " + root + " kept changing while "
        + "it was being opened");
  }

  @Override
  public StoredObjectInfo write(StoragePath key, InputStream data, long length,
      WritePrecondition precondition) {
    Path target = targetFileOf(key);
    Path temp = null;
    try {
      temp = writeTemp(data, length);
      StoredObjectInfo written = infoOf(key, Files.readAttributes(temp,
          BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS));
      if (precondition.isNone()) {
        Files.move(temp, target, StandardCopyOption.ATOMIC_MOVE,
            StandardCopyOption.REPLACE_EXISTING);
      } else if (precondition.ifMatch().isEmpty()
          && precondition.ifNoneMatch().equals(Optional.of(WritePrecondition.ANY))) {
        // Create-if-absent: a hard link is made atomically and fails if the target exists.
        try {
          Files.createLink(target, temp);
        } catch (FileAlreadyExistsException e) {
          throw new PreconditionFailedException("an object exists at '" + key + "'");
        }
      } else {
        replaceIfHolds(key, target, temp, precondition);
      }
      LocalPaths.syncDirectory(target.getParent());
      return written;
    } catch (FileSystemException e) {
      throw keyConflict(key).orElseThrow(() -> failure("write", key, e));
    } catch (IOException e) {
      throw failure("write", key, e);
    } finally {
      deleteQuietly(temp);
    }
  }

  /** Compares and replaces under the lock {@link #putIfVersion} takes for the same key. */
  private void replaceIfHolds(StoragePath key, Path target, Path temp,
      WritePrecondition precondition) throws IOException {
    Path lockPath = lockFileOf(key);
    ReentrantLock lock = KEY_LOCKS.computeIfAbsent(lockPath, k -> new ReentrantLock());
    lock.lock();
    try (FileChannel lockFile = FileChannel.open(lockPath,
        Set.of(StandardOpenOption.CREATE, StandardOpenOption.WRITE),
        LocalPaths.fileAttributes());
        FileLock ignored = lockFile.lock()) {
      if (!precondition.holdsFor(stat(key).map(StoredObjectInfo::etag))) {
        throw new PreconditionFailedException("the object at '" + key + "' does not match the "
            + "write's precondition");
      }
      Files.move(temp, target, StandardCopyOption.ATOMIC_MOVE,
          StandardCopyOption.REPLACE_EXISTING);
    } finally {
      lock.unlock();
    }
  }

  @Override
  public List<StoredObjectInfo> list(StoragePath prefix, Optional<String> startAfter, int limit) {
    Path dir = directoryOf(prefix);
    if (!Files.isDirectory(dir, LinkOption.NOFOLLOW_LINKS) || limit <= 0) {
      return List.of();
    }
    List<Path> files;
    try (Stream<Path> walk = Files.walk(dir)) {
      files = walk.filter(path -> Files.isRegularFile(path, LinkOption.NOFOLLOW_LINKS)).toList();
    } catch (NoSuchFileException e) {
      return List.of();
    } catch (IOException | java.io.UncheckedIOException e) {
      throw new StorageException("could not list '" + prefix + "' in local bucket " + root + ": "
          + e.getMessage(), e);
    }
    List<StoredObjectInfo> out = new ArrayList<>();
    files.stream().map(this::keyOf)
        .filter(key -> !key.value().startsWith(HOUSEKEEPING_DIR + "/"))
        .filter(key -> startAfter.map(after -> key.value().compareTo(after) > 0).orElse(true))
        .sorted((a, b) -> a.value().compareTo(b.value()))
        .forEachOrdered(key -> {
          if (out.size() < limit) {
            stat(key).ifPresent(out::add);
          }
        });
    return out;
  }

  private BasicFileAttributes readRegularFile(Path file) throws IOException {
    BasicFileAttributes attributes = Files.readAttributes(file, BasicFileAttributes.class,
        LinkOption.NOFOLLOW_LINKS);
    if (!attributes.isRegularFile()) {
      throw new NoSuchFileException(file.toString());
    }
    return attributes;
  }

  private static boolean sameFile(BasicFileAttributes a, BasicFileAttributes b) {
    return java.util.Objects.equals(a.fileKey(), b.fileKey()) && a.size() == b.size()
        && a.lastModifiedTime().equals(b.lastModifiedTime());
  }

  private static StoredObjectInfo infoOf(StoragePath key, BasicFileAttributes attributes) {
    String identity = attributes.fileKey() + "|" + attributes.size() + "|"
        + attributes.lastModifiedTime().to(java.util.concurrent.TimeUnit.NANOSECONDS);
    return new StoredObjectInfo(key, attributes.size(),
        attributes.lastModifiedTime().toInstant(),
        versionOf(identity.getBytes(java.nio.charset.StandardCharsets.UTF_8)).substring(0, 32));
  }

  /**
   * Where {@code key} is written: its parent directories are created, and a parent that is an
   * object already (S3 allows both {@code a} and {@code a/b}; a directory cannot) is refused.
   */
  private Path targetFileOf(StoragePath key) {
    try {
      return fileOf(key);
    } catch (RefusedLocationException e) {
      throw e;
    } catch (StorageException e) {
      throw keyConflict(key).orElseThrow(() -> e);
    }
  }

  /**
   * Why {@code key} cannot hold an object on a filesystem, if that is why a write failed: it is
   * a directory (a prefix of other objects), or one of its parents is a file (an object).
   */
  private Optional<BadRequestException> keyConflict(StoragePath key) {
    Path target = root.resolve(key.value());
    if (Files.isDirectory(target, LinkOption.NOFOLLOW_LINKS)) {
      return Optional.of(new BadRequestException("The key '%s' is a prefix of other objects in "
          + "this local bucket, which cannot also hold an object of that name", key));
    }
    for (Path parent = target.getParent(); parent != null && parent.startsWith(root)
        && !parent.equals(root); parent = parent.getParent()) {
      if (Files.isRegularFile(parent, LinkOption.NOFOLLOW_LINKS)) {
        return Optional.of(new BadRequestException("The key '%s' lies beneath an object of this "
            + "local bucket, which cannot also be a prefix of other objects", key));
      }
    }
    return Optional.empty();
  }

  private Path writeTemp(InputStream data, long length) throws IOException {
    Path temps = housekeeping("tmp");
    Path temp = temps.resolve(UUID.randomUUID().toString());
    boolean complete = false;
    try (FileChannel out = FileChannel.open(temp, Set.of(StandardOpenOption.CREATE_NEW,
        StandardOpenOption.WRITE, LinkOption.NOFOLLOW_LINKS),
        LocalPaths.fileAttributes())) {
      LocalPaths.restrict(temp, LocalPaths.FILE_MODE);
      long copied = 0;
      byte[] buffer = new byte[64 * 1024];
      while (copied < length) {
        int n = readBody(data, buffer, (int) Math.min(buffer.length, length - copied));
        if (n < 0) {
          throw new BadRequestException("The object's body ended after %s of the %s bytes it "
              + "announced", copied, length);
        }
        ByteBuffer chunk = ByteBuffer.wrap(buffer, 0, n);
        while (chunk.hasRemaining()) {
          out.write(chunk);
        }
        copied += n;
      }
      // On disk before it is renamed into place, as for every write of this bucket.
      out.force(true);
      complete = true;
      return temp;
    } finally {
      if (!complete) {
        deleteQuietly(temp);
      }
    }
  }

  /** The client's body, whose failure (it went away mid-way) is the client's, not storage's. */
  private static int readBody(InputStream data, byte[] buffer, int length) {
    try {
      return data.read(buffer, 0, length);
    } catch (IOException e) {
      throw new BadRequestException("The object's body could not be read: %s", e.getMessage());
    }
  }

  private static void closeQuietly(InputStream in) {
    if (in != null) {
      try {
        in.close();
      } catch (IOException ignored) {
        // Only a read handle: nothing to undo.
      }
    }
  }

  /** The first {@code remaining} bytes of a stream, then its end. */
  private static final class BoundedInputStream extends java.io.FilterInputStream {
    private long remaining;

    BoundedInputStream(InputStream in, long remaining) {
      super(in);
      this.remaining = remaining;
    }

    @Override
    public int read() throws IOException {
      if (remaining <= 0) {
        return -1;
      }
      int b = super.read();
      if (b >= 0) {
        remaining--;
      }
      return b;
    }

    @Override
    public int read(byte[] buffer, int offset, int length) throws IOException {
      if (remaining <= 0) {
        return -1;
      }
      int n = super.read(buffer, offset, (int) Math.min(length, remaining));
      if (n > 0) {
        remaining -= n;
      }
      return n;
    }
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
