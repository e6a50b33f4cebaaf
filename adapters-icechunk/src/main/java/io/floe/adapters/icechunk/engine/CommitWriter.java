package io.floe.adapters.icechunk.engine;

import io.floe.adapters.icechunk.format.ChunkIndex;
import io.floe.adapters.icechunk.format.ChunkPayload;
import io.floe.adapters.icechunk.format.Manifest;
import io.floe.adapters.icechunk.format.ManifestCodec;
import io.floe.adapters.icechunk.format.ManifestFileInfo;
import io.floe.adapters.icechunk.format.ManifestRef;
import io.floe.adapters.icechunk.format.MetadataItem;
import io.floe.adapters.icechunk.format.NodeId;
import io.floe.adapters.icechunk.format.NodeSnapshot;
import io.floe.adapters.icechunk.format.ObjectId12;
import io.floe.adapters.icechunk.format.OpsLogEntry;
import io.floe.adapters.icechunk.format.RepoInfo;
import io.floe.adapters.icechunk.format.Snapshot;
import io.floe.adapters.icechunk.format.SnapshotCodec;
import io.floe.adapters.icechunk.format.SnapshotFile;
import io.floe.adapters.icechunk.format.SpecVersion;
import io.floe.adapters.icechunk.format.TransactionLog;
import io.floe.adapters.icechunk.format.TransactionLogCodec;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.function.Function;

/**
 * Writes a change set as a commit on a branch: one manifest per array whose chunks changed, the
 * transaction log and the snapshot (independent objects, written together), then the branch moves
 * with a conditional replace of the repo file, only if it still is at the change set's base.
 */
final class CommitWriter {
  /** The commit written: its id and its snapshot, as the session continues from it. */
  record Written(ObjectId12 id, SnapshotFile snapshot) {}

  private final IcechunkRepository repo;
  private final RepoObjects objects;

  CommitWriter(IcechunkRepository repo, RepoObjects objects) {
    this.repo = repo;
    this.objects = objects;
  }

  /**
   * Commits {@code nodes} (the base with the changes applied) on {@code branch}, whose tip must
   * still be {@code parent}: else a {@link CommitConflictException}, and nothing is published.
   * {@code chunkRefs} gives an array's chunks with the changes applied.
   */
  Written write(String branch, ObjectId12 parent, SnapshotFile base, List<NodeSnapshot> nodes,
      ChangeSet changes, Function<NodeSnapshot, SortedMap<ChunkIndex, ChunkPayload>> chunkRefs,
      String message, Map<String, ?> metadata) {
    long now = repo.now();
    ObjectId12 snapshotId = ObjectId12.random();
    Map<ObjectId12, ManifestFileInfo> files = new HashMap<>();
    base.manifestFiles().forEach(f -> files.put(f.id(), f));
    List<NodeSnapshot> committed = new ArrayList<>();
    Map<String, byte[]> writes = new LinkedHashMap<>();
    List<Manifest> newManifests = new ArrayList<>();
    for (NodeSnapshot n : nodes) {
      if (n.isArray() && changes.changesChunksOf(n)) {
        n = n.withManifests(newManifest(n, chunkRefs.apply(n), files, writes, newManifests));
      }
      committed.add(n);
    }
    Set<ObjectId12> used = new TreeSet<>();
    committed.forEach(n -> n.manifests().forEach(m -> used.add(m.manifestId())));
    List<ManifestFileInfo> manifestFiles = new ArrayList<>();
    for (ObjectId12 id : used) {
      ManifestFileInfo info = files.get(id);
      manifestFiles.add(info != null ? info : new ManifestFileInfo(id,
          0, objects.manifest(id).chunkRefCount()));
    }
    List<MetadataItem> items = MetadataItem.encodeV2(metadata == null ? Map.of() : metadata);
    TransactionLog log = changes.transactionLog(snapshotId);
    Snapshot snapshot = new Snapshot(SpecVersion.V2, snapshotId, null, committed, now, message,
        items, manifestFiles);
    writes.put(RepoObjects.TRANSACTIONS + "/" + snapshotId, TransactionLogCodec.encode(log));
    byte[] payload = SnapshotCodec.encodePayload(snapshot);
    writes.put(RepoObjects.SNAPSHOTS + "/" + snapshotId, SnapshotCodec.seal(payload));
    repo.updateRepoInfo("commit to branch '" + branch + "'", info -> {
      ObjectId12 tip = info.branches().get(branch);
      if (!parent.equals(tip)) {
        throw new CommitConflictException(branch, parent, tip);
      }
      SortedMap<ObjectId12, RepoInfo.SnapshotInfo> snapshots = new TreeMap<>(info.snapshots());
      snapshots.put(snapshotId, new RepoInfo.SnapshotInfo(snapshotId, parent, now, message, items,
          null));
      SortedMap<String, ObjectId12> branches = new TreeMap<>(info.branches());
      branches.put(branch, snapshotId);
      return new IcechunkRepository.Change(
          info.withSnapshots(snapshots).withRefs(branches, info.tags(), info.deletedTags()),
          OpsLogEntry.named(OpsLogEntry.Kind.NEW_COMMIT, now, branch, null, snapshotId));
    }, writes);
    newManifests.forEach(objects::remember);
    SnapshotFile written = SnapshotFile.fromPayload(
        objects.describe(RepoObjects.SNAPSHOTS + "/" + snapshotId), SpecVersion.V2, payload);
    objects.remember(snapshotId, written);
    return new Written(snapshotId, written);
  }

  /**
   * One manifest per changed array holding all its refs, as Icechunk writes by default; added to
   * {@code writes} rather than written.
   */
  private static List<ManifestRef> newManifest(NodeSnapshot n,
      SortedMap<ChunkIndex, ChunkPayload> refs, Map<ObjectId12, ManifestFileInfo> files,
      Map<String, byte[]> writes, List<Manifest> newManifests) {
    if (refs.isEmpty()) {
      return List.of();
    }
    ObjectId12 id = ObjectId12.random();
    SortedMap<NodeId, SortedMap<ChunkIndex, ChunkPayload>> arrays = new TreeMap<>();
    arrays.put(n.id(), refs);
    Manifest manifest = new Manifest(id, arrays);
    byte[] bytes = ManifestCodec.encode(manifest);
    writes.put(RepoObjects.MANIFESTS + "/" + id, bytes);
    newManifests.add(manifest);
    files.put(id, new ManifestFileInfo(id, bytes.length, refs.size()));
    return List.of(new ManifestRef(id, extents(refs, n.shape().size())));
  }

  /** Per dimension, from the smallest to one past the largest written chunk coordinate. */
  private static List<long[]> extents(SortedMap<ChunkIndex, ChunkPayload> refs, int rank) {
    List<long[]> out = new ArrayList<>();
    for (int d = 0; d < rank; d++) {
      long min = Long.MAX_VALUE;
      long max = -1;
      for (ChunkIndex index : refs.keySet()) {
        min = Math.min(min, index.get(d));
        max = Math.max(max, index.get(d));
      }
      out.add(new long[] {min, max + 1});
    }
    return out;
  }
}
