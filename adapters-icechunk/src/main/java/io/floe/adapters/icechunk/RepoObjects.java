package io.floe.adapters.icechunk;

import io.floe.adapters.icechunk.format.Manifest;
import io.floe.adapters.icechunk.format.ManifestCodec;
import io.floe.adapters.icechunk.format.ObjectId12;
import io.floe.adapters.icechunk.format.Snapshot;
import io.floe.adapters.icechunk.format.SnapshotCodec;
import io.floe.adapters.icechunk.format.TransactionLog;
import io.floe.adapters.icechunk.format.TransactionLogCodec;
import io.floe.application.port.out.BucketStorage;
import io.floe.application.port.out.StoredObject;
import io.floe.domain.StoragePath;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The repository's objects in the bucket, by the spec's layout under the repo prefix. Snapshots,
 * manifests and transaction logs are immutable once written, so decoded ones are cached.
 */
final class RepoObjects {
  static final String REPO_FILE = "repo";
  static final String SNAPSHOTS = "snapshots";
  static final String MANIFESTS = "manifests";
  static final String TRANSACTIONS = "transactions";
  static final String CHUNKS = "chunks";
  static final String OVERWRITTEN = "overwritten";
  static final String REFS_V1 = "refs";

  private final BucketStorage storage;
  private final StoragePath root;
  private final Map<ObjectId12, Snapshot> snapshots = new ConcurrentHashMap<>();
  private final Map<ObjectId12, Manifest> manifests = new ConcurrentHashMap<>();

  RepoObjects(BucketStorage storage, StoragePath root) {
    this.storage = storage;
    this.root = root;
  }

  BucketStorage storage() {
    return storage;
  }

  StoragePath root() {
    return root;
  }

  StoragePath key(String relative) {
    return root.resolve(relative);
  }

  /** How error messages name an object: its key in the bucket. */
  String describe(String relative) {
    return key(relative).value();
  }

  Optional<StoredObject> getRaw(String relative) {
    return storage.get(key(relative));
  }

  byte[] require(String relative, String what) {
    return storage.get(key(relative)).map(StoredObject::data).orElseThrow(() ->
        new IcechunkNotFoundException(what + " " + describe(relative) + " does not exist"));
  }

  Snapshot snapshot(ObjectId12 id) {
    return snapshots.computeIfAbsent(id, k -> {
      String rel = SNAPSHOTS + "/" + k;
      return SnapshotCodec.decode(describe(rel), require(rel, "snapshot"));
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

  void remember(Snapshot snapshot) {
    snapshots.put(snapshot.id(), snapshot);
  }

  void remember(Manifest manifest) {
    manifests.put(manifest.id(), manifest);
  }
}
