package io.floe.adapters.icechunk.engine;

import io.floe.adapters.icechunk.format.Manifest;
import io.floe.adapters.icechunk.format.ManifestCodec;
import io.floe.adapters.icechunk.format.ObjectId12;
import io.floe.adapters.icechunk.format.SnapshotFile;
import io.floe.adapters.icechunk.format.TransactionLog;
import io.floe.adapters.icechunk.format.TransactionLogCodec;
import io.floe.domain.StoragePath;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

/**
 * The repository's objects in its store, by the spec's layout under the repo prefix. Snapshots,
 * manifests and transaction logs are immutable once written, so decoded ones are cached. Public
 * for what walks a repository's objects (garbage collection); sessions are how to change them.
 */
public final class RepoObjects {
  public static final String REPO_FILE = "repo";
  public static final String SNAPSHOTS = "snapshots";
  public static final String MANIFESTS = "manifests";
  public static final String TRANSACTIONS = "transactions";
  public static final String CHUNKS = "chunks";
  public static final String OVERWRITTEN = "overwritten";
  public static final String REFS_V1 = "refs";

  /** Threads that only wait on storage writes; shared by every repository in the process. */
  private static final ExecutorService UPLOADS = Executors.newFixedThreadPool(16, task -> {
    Thread t = new Thread(task, "icechunk-upload");
    t.setDaemon(true);
    return t;
  });

  private final ObjectStore storage;
  private final StoragePath root;
  private final Map<ObjectId12, SnapshotFile> snapshots = new ConcurrentHashMap<>();
  private final Map<ObjectId12, Manifest> manifests = new ConcurrentHashMap<>();

  RepoObjects(ObjectStore storage, StoragePath root) {
    this.storage = storage;
    this.root = root;
  }

  public ObjectStore storage() {
    return storage;
  }

  public StoragePath root() {
    return root;
  }

  StoragePath key(String relative) {
    return root.resolve(relative);
  }

  /** How error messages name an object: its key in the store. */
  public String describe(String relative) {
    return key(relative).value();
  }

  Optional<ObjectStore.Stored> getRaw(String relative) {
    return storage.get(key(relative));
  }

  /** The object at {@code relative} to the root; {@code what} names it when it is missing. */
  public byte[] require(String relative, String what) {
    return storage.get(key(relative)).map(ObjectStore.Stored::data).orElseThrow(() ->
        new IcechunkNotFoundException(what + " " + describe(relative) + " does not exist"));
  }

  /** A snapshot opened lazily: its nodes are decoded only when asked for. */
  public SnapshotFile snapshot(ObjectId12 id) {
    return snapshots.computeIfAbsent(id, k -> {
      String rel = SNAPSHOTS + "/" + k;
      return SnapshotFile.open(describe(rel), require(rel, "snapshot"));
    });
  }

  Manifest manifest(ObjectId12 id) {
    return manifests.computeIfAbsent(id, k -> {
      String rel = MANIFESTS + "/" + k;
      return ManifestCodec.decode(describe(rel), require(rel, "manifest"));
    });
  }

  TransactionLog transactionLog(ObjectId12 id) {
    String rel = TRANSACTIONS + "/" + id;
    return TransactionLogCodec.decode(describe(rel), require(rel, "transaction log"));
  }

  byte[] chunk(ObjectId12 id, long offset, long length) {
    String rel = CHUNKS + "/" + id;
    if (length > Integer.MAX_VALUE) {
      throw new IcechunkException("chunk " + describe(rel) + " range of " + length
          + " bytes is too large to read at once");
    }
    byte[] data = storage.getRange(key(rel), offset, (int) length).orElseThrow(() ->
        new IcechunkNotFoundException("chunk " + describe(rel) + " does not exist"));
    if (data.length != length) {
      throw new IcechunkException("chunk " + describe(rel) + " is truncated: wanted " + length
          + " bytes at offset " + offset + ", got " + data.length);
    }
    return data;
  }

  void putImmutable(String relative, byte[] data) {
    storage.put(key(relative), data);
  }

  /**
   * Writes independent new objects at once (a commit's manifests, transaction log and snapshot;
   * a batch of chunks), as Icechunk does: on object storage each write is a round trip, and their
   * latencies overlap. Returns when all are stored; the first failure is rethrown.
   */
  void putAllImmutable(Map<String, byte[]> objectsByName) {
    if (objectsByName.size() == 1) {
      objectsByName.forEach(this::putImmutable);
      return;
    }
    List<Future<?>> writes = new ArrayList<>(objectsByName.size());
    objectsByName.forEach((relative, data) ->
        writes.add(UPLOADS.submit(() -> putImmutable(relative, data))));
    RuntimeException failure = null;
    for (Future<?> write : writes) {
      try {
        write.get();
      } catch (ExecutionException e) {
        if (failure == null) {
          failure = e.getCause() instanceof RuntimeException r ? r
              : new IcechunkException("write failed: " + e.getCause(), e.getCause());
        }
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new IcechunkException("interrupted while writing objects of " + root, e);
      }
    }
    if (failure != null) {
      throw failure;
    }
  }

  void remember(ObjectId12 id, SnapshotFile snapshot) {
    snapshots.put(id, snapshot);
  }

  void remember(Manifest manifest) {
    manifests.put(manifest.id(), manifest);
  }
}
