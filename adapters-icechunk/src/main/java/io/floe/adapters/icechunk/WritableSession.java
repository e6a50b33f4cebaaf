package io.floe.adapters.icechunk;

import io.floe.adapters.icechunk.format.ChunkIndex;
import io.floe.adapters.icechunk.format.ChunkPayload;
import io.floe.adapters.icechunk.format.FlexJson;
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
import java.util.Optional;
import java.util.Set;
import java.util.SortedMap;
import java.util.SortedSet;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * Uncommitted changes on top of a branch tip: node metadata (zarr.json), node creation and
 * deletion, chunk writes. Reads see the changes. Changes are keyed by node id, so after a
 * {@link #rebase()} they apply to the new tip as long as nobody else touched the same things.
 * Not thread-safe.
 */
public final class WritableSession extends ReadSession {
  private final IcechunkRepository repo;
  private final String branch;
  /** Nodes created in this session, by path. */
  private final SortedMap<String, NodeSnapshot> added = new TreeMap<>(FlexJson::compareUtf8);
  /** New zarr.json of nodes that exist in the base snapshot. */
  private final Map<NodeId, Update> updatedUserData = new HashMap<>();
  /** Base-snapshot nodes deleted in this session, with their path and type. */
  private final Map<NodeId, NodeSnapshot> deleted = new LinkedHashMap<>();
  /** Chunk writes per node; an empty Optional deletes the chunk. */
  private final Map<NodeId, SortedMap<ChunkIndex, Optional<ChunkPayload>>> chunkChanges =
      new HashMap<>();

  private final int inlineThreshold;

  /** A base-snapshot node's new zarr.json, with what the transaction log needs to know of it. */
  private record Update(String path, NodeSnapshot.NodeType type, byte[] zarrJson) {}

  WritableSession(IcechunkRepository repo, RepoObjects objects, String branch, ObjectId12 baseId,
      SnapshotFile base, int inlineThreshold) {
    super(objects, baseId, base);
    this.repo = repo;
    this.branch = branch;
    this.inlineThreshold = inlineThreshold;
  }

  public String branch() {
    return branch;
  }

  public boolean hasUncommittedChanges() {
    return !added.isEmpty() || !updatedUserData.isEmpty() || !deleted.isEmpty()
        || !chunkChanges.isEmpty();
  }

  // ---------------------------------------------------------------- view

  /** The base snapshot's nodes (already in path order) merged with this session's changes. */
  @Override
  public List<NodeSnapshot> nodes() {
    List<NodeSnapshot> baseNodes = base.nodes();
    List<NodeSnapshot> out = new ArrayList<>(baseNodes.size() + added.size());
    java.util.Iterator<NodeSnapshot> newNodes = added.values().iterator();
    NodeSnapshot next = newNodes.hasNext() ? newNodes.next() : null;
    for (NodeSnapshot n : baseNodes) {
      if (deleted.containsKey(n.id())) {
        continue;
      }
      while (next != null && FlexJson.compareUtf8(next.path(), n.path()) < 0) {
        out.add(next);
        next = newNodes.hasNext() ? newNodes.next() : null;
      }
      out.add(current(n));
    }
    while (next != null) {
      out.add(next);
      next = newNodes.hasNext() ? newNodes.next() : null;
    }
    return out;
  }

  @Override
  public Optional<NodeSnapshot> node(String path) {
    String p = NodePaths.canonical(path);
    NodeSnapshot a = added.get(p);
    if (a != null) {
      return Optional.of(a);
    }
    return base.node(p).filter(b -> !deleted.containsKey(b.id())).map(this::current);
  }

  @Override
  public List<NodeSnapshot> children(String path) {
    String p = NodePaths.canonical(path);
    if (added.isEmpty() && deleted.isEmpty() && updatedUserData.isEmpty()) {
      return base.children(p);
    }
    List<NodeSnapshot> out = new ArrayList<>();
    for (NodeSnapshot n : nodes()) {
      if (!n.path().equals(p) && NodePaths.parent(n.path()).equals(p)) {
        out.add(n);
      }
    }
    return out;
  }

  /** A base node with this session's metadata change applied. */
  private NodeSnapshot current(NodeSnapshot baseNode) {
    Update update = updatedUserData.get(baseNode.id());
    if (update == null) {
      return baseNode;
    }
    byte[] data = update.zarrJson();
    if (!baseNode.isArray()) {
      return baseNode.withUserData(data);
    }
    ZarrMetadata meta = ZarrMetadata.parse(baseNode.path(), data);
    return new NodeSnapshot(baseNode.id(), baseNode.path(), data, baseNode.type(),
        meta.dimensionShapes(baseNode.path()), meta.dimensionNames(), baseNode.manifests());
  }

  private boolean isAdded(NodeSnapshot n) {
    return added.get(n.path()) != null && added.get(n.path()).id().equals(n.id());
  }

  @Override
  Optional<ChunkPayload> chunkPayload(NodeSnapshot n, ChunkIndex index) {
    SortedMap<ChunkIndex, Optional<ChunkPayload>> changes = chunkChanges.get(n.id());
    if (changes != null && changes.containsKey(index)) {
      return changes.get(index);
    }
    if (isAdded(n)) {
      return Optional.empty();
    }
    return super.chunkPayload(n, index);
  }

  @Override
  SortedMap<ChunkIndex, ChunkPayload> chunkRefsOf(NodeSnapshot n) {
    SortedMap<ChunkIndex, ChunkPayload> out = isAdded(n) ? new TreeMap<>() : baseChunkRefs(n);
    SortedMap<ChunkIndex, Optional<ChunkPayload>> changes = chunkChanges.get(n.id());
    if (changes != null) {
      changes.forEach((index, payload) -> {
        if (payload.isPresent()) {
          out.put(index, payload.get());
        } else {
          out.remove(index);
        }
      });
    }
    return out;
  }

  // ---------------------------------------------------------------- changes

  /** Creates a group with the given attributes, or replaces the node there with one. */
  public void createGroup(String path, Map<String, ?> attributes) {
    setMetadata(path, ZarrMetadata.group(attributes));
  }

  /**
   * Sets a node's {@code zarr.json}: creates the node if absent, updates it if it has the same
   * type, replaces it (and what lies below it) if the type changed. Arrays get their snapshot
   * shape and dimension names from the document.
   */
  public void setMetadata(String path, byte[] zarrJson) {
    String p = NodePaths.canonical(path);
    ZarrMetadata meta = ZarrMetadata.parse(p, zarrJson);
    if (!meta.isArray() && !meta.isGroup()) {
      throw new IcechunkException(p + ": zarr.json node_type must be 'array' or 'group'");
    }
    byte[] data = zarrJson.clone();
    Optional<NodeSnapshot> existing = node(p);
    NodeSnapshot.NodeType type = meta.isArray() ? NodeSnapshot.NodeType.ARRAY
        : NodeSnapshot.NodeType.GROUP;
    if (existing.isPresent() && existing.get().type() != type) {
      deleteNode(p);
      existing = Optional.empty();
    }
    if (existing.isEmpty()) {
      NodeId id = NodeId.random();
      added.put(p, type == NodeSnapshot.NodeType.ARRAY
          ? new NodeSnapshot(id, p, data, type, meta.dimensionShapes(p), meta.dimensionNames(),
              List.of())
          : NodeSnapshot.group(id, p, data));
      return;
    }
    NodeSnapshot n = existing.get();
    if (isAdded(n)) {
      added.put(p, type == NodeSnapshot.NodeType.ARRAY
          ? new NodeSnapshot(n.id(), p, data, type, meta.dimensionShapes(p), meta.dimensionNames(),
              List.of())
          : n.withUserData(data));
    } else {
      updatedUserData.put(n.id(), new Update(n.path(), n.type(), data));
    }
  }

  /** Replaces the attributes in a node's zarr.json, keeping the rest of the document. */
  public void setAttributes(String path, Map<String, ?> attributes) {
    NodeSnapshot n = requireNode(path);
    setMetadata(n.path(), ZarrMetadata.parse(n.path(), n.userData()).withAttributes(attributes));
  }

  /** Deletes a node and everything below it, with their chunks. */
  public void deleteNode(String path) {
    String p = NodePaths.canonical(path);
    if (nodes().stream().noneMatch(n -> NodePaths.isWithin(n.path(), p))) {
      throw new IcechunkNotFoundException("nothing to delete at '" + p + "' in branch '"
          + branch + "'");
    }
    for (NodeSnapshot n : nodes()) {
      if (!NodePaths.isWithin(n.path(), p)) {
        continue;
      }
      chunkChanges.remove(n.id());
      if (isAdded(n)) {
        added.remove(n.path());
      } else {
        updatedUserData.remove(n.id());
        deleted.put(n.id(), n);
      }
    }
  }

  /**
   * Stores a chunk's encoded bytes. Up to the repo config's inline threshold (default
   * {@link IcechunkRepository#INLINE_CHUNK_THRESHOLD_BYTES}) they go into the manifest; larger ones are written now as a chunk object (as Icechunk does,
   * so a session's memory does not grow with its data).
   */
  public void setChunk(String path, ChunkIndex index, byte[] data) {
    NodeSnapshot n = requireArray(path, index);
    ChunkPayload payload;
    if (data.length <= inlineThreshold) {
      payload = new ChunkPayload.Inline(data.clone());
    } else {
      ObjectId12 chunkId = ObjectId12.random();
      objects.putImmutable(RepoObjects.CHUNKS + "/" + chunkId, data);
      payload = new ChunkPayload.Native(chunkId, 0, data.length);
    }
    chunkChanges.computeIfAbsent(n.id(), k -> new TreeMap<>()).put(index, Optional.of(payload));
  }

  /**
   * Stores many chunks of one array at once: the chunk objects are written concurrently (as
   * Python's Icechunk does when zarr writes a region), and the call returns when all are stored.
   * Nothing is recorded if any write fails.
   */
  public void setChunks(String path, Map<ChunkIndex, byte[]> chunks) {
    NodeSnapshot n = requireNode(path);
    Map<ChunkIndex, ChunkPayload> payloads = new LinkedHashMap<>();
    Map<String, byte[]> writes = new LinkedHashMap<>();
    for (Map.Entry<ChunkIndex, byte[]> e : chunks.entrySet()) {
      requireInGrid(n, e.getKey());
      byte[] data = e.getValue();
      if (data.length <= inlineThreshold) {
        payloads.put(e.getKey(), new ChunkPayload.Inline(data.clone()));
      } else {
        ObjectId12 chunkId = ObjectId12.random();
        writes.put(RepoObjects.CHUNKS + "/" + chunkId, data);
        payloads.put(e.getKey(), new ChunkPayload.Native(chunkId, 0, data.length));
      }
    }
    objects.putAllImmutable(writes);
    SortedMap<ChunkIndex, Optional<ChunkPayload>> changes =
        chunkChanges.computeIfAbsent(n.id(), k -> new TreeMap<>());
    payloads.forEach((index, payload) -> changes.put(index, Optional.of(payload)));
  }

  /** Points a chunk at a byte range of an object outside the repository. */
  public void setVirtualChunk(String path, ChunkIndex index, String location, long offset,
      long length) {
    NodeSnapshot n = requireArray(path, index);
    chunkChanges.computeIfAbsent(n.id(), k -> new TreeMap<>()).put(index,
        Optional.of(new ChunkPayload.Virtual(location, offset, length, null, 0)));
  }

  public void deleteChunk(String path, ChunkIndex index) {
    NodeSnapshot n = requireArray(path, index);
    chunkChanges.computeIfAbsent(n.id(), k -> new TreeMap<>()).put(index, Optional.empty());
  }

  private NodeSnapshot requireArray(String path, ChunkIndex index) {
    return requireInGrid(requireNode(path), index);
  }

  private static NodeSnapshot requireInGrid(NodeSnapshot n, ChunkIndex index) {
    if (!n.isArray()) {
      throw new IcechunkException("'" + n.path() + "' is a group; only arrays have chunks");
    }
    if (index.rank() != n.shape().size()) {
      throw new IcechunkException("chunk index " + index + " has " + index.rank()
          + " coordinates but '" + n.path() + "' has " + n.shape().size() + " dimensions");
    }
    for (int d = 0; d < index.rank(); d++) {
      if (index.get(d) >= n.shape().get(d).numChunks()) {
        throw new IcechunkException("chunk index " + index + " is outside the chunk grid of '"
            + n.path() + "' (" + n.shape().get(d).numChunks() + " chunks in dimension " + d + ")");
      }
    }
    return n;
  }

  // ---------------------------------------------------------------- commit

  /**
   * Writes manifests, the transaction log and the snapshot, then moves the branch with a
   * conditional replace of the repo file. Throws {@link CommitConflictException} if the branch
   * moved since this session's base; the session keeps its changes for {@link #rebase()}.
   * After success the session continues from the new commit.
   */
  public ObjectId12 commit(String message, Map<String, ?> metadata) {
    return commit(message, metadata, false);
  }

  /**
   * As {@link #commit(String, Map)}; with {@code allowEmpty} a commit without changes to nodes or
   * chunks is made too (its metadata is the change, e.g. a table pointer that moved).
   */
  public ObjectId12 commit(String message, Map<String, ?> metadata, boolean allowEmpty) {
    if (!allowEmpty && !hasUncommittedChanges()) {
      throw new IcechunkException("no changes to commit on branch '" + branch + "'");
    }
    long now = repo.now();
    ObjectId12 snapshotId = ObjectId12.random();
    Map<ObjectId12, ManifestFileInfo> files = new HashMap<>();
    base.manifestFiles().forEach(f -> files.put(f.id(), f));
    List<NodeSnapshot> nodes = new ArrayList<>();
    // Manifests, transaction log and snapshot are independent objects, written together (with
    // the repo file's backup) once the branch is known not to have moved.
    Map<String, byte[]> writes = new LinkedHashMap<>();
    List<Manifest> newManifests = new ArrayList<>();
    for (NodeSnapshot n : nodes()) {
      if (n.isArray() && chunkChanges.containsKey(n.id())) {
        n = n.withManifests(newManifest(n, files, writes, newManifests));
      }
      nodes.add(n);
    }
    Set<ObjectId12> used = new TreeSet<>();
    nodes.forEach(n -> n.manifests().forEach(m -> used.add(m.manifestId())));
    List<ManifestFileInfo> manifestFiles = new ArrayList<>();
    for (ObjectId12 id : used) {
      ManifestFileInfo info = files.get(id);
      manifestFiles.add(info != null ? info : new ManifestFileInfo(id,
          0, objects.manifest(id).chunkRefCount()));
    }
    List<MetadataItem> items = MetadataItem.encodeV2(metadata == null ? Map.of() : metadata);
    TransactionLog log = transactionLog(snapshotId);
    Snapshot snapshot = new Snapshot(SpecVersion.V2, snapshotId, null, nodes, now, message, items,
        manifestFiles);
    writes.put(RepoObjects.TRANSACTIONS + "/" + snapshotId, TransactionLogCodec.encode(log));
    byte[] payload = SnapshotCodec.encodePayload(snapshot);
    writes.put(RepoObjects.SNAPSHOTS + "/" + snapshotId, SnapshotCodec.seal(payload));
    ObjectId12 parent = baseId;
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
    clearChanges();
    setBase(snapshotId, written);
    return snapshotId;
  }

  /**
   * Commits; if the branch moved meanwhile, rebases (failing on real conflicts) and tries again,
   * at most {@code maxAttempts} times.
   */
  public ObjectId12 commitRebasing(String message, Map<String, ?> metadata, int maxAttempts) {
    CommitConflictException last = null;
    for (int i = 0; i < maxAttempts; i++) {
      try {
        return commit(message, metadata);
      } catch (CommitConflictException e) {
        last = e;
        rebase();
      }
    }
    throw last;
  }

  /**
   * One manifest per changed array holding all its refs, as Icechunk writes by default; added to
   * {@code writes} rather than written.
   */
  private List<ManifestRef> newManifest(NodeSnapshot n, Map<ObjectId12, ManifestFileInfo> files,
      Map<String, byte[]> writes, List<Manifest> newManifests) {
    SortedMap<ChunkIndex, ChunkPayload> refs = chunkRefsOf(n);
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

  private TransactionLog transactionLog(ObjectId12 id) {
    SortedSet<NodeId> newGroups = new TreeSet<>();
    SortedSet<NodeId> newArrays = new TreeSet<>();
    for (NodeSnapshot n : added.values()) {
      (n.isArray() ? newArrays : newGroups).add(n.id());
    }
    SortedSet<NodeId> deletedGroups = new TreeSet<>();
    SortedSet<NodeId> deletedArrays = new TreeSet<>();
    deleted.values().forEach(n -> (n.isArray() ? deletedArrays : deletedGroups).add(n.id()));
    SortedSet<NodeId> updatedGroups = new TreeSet<>();
    SortedSet<NodeId> updatedArrays = new TreeSet<>();
    updatedUserData.forEach((node, update) ->
        (update.type() == NodeSnapshot.NodeType.ARRAY ? updatedArrays : updatedGroups).add(node));
    SortedMap<NodeId, SortedSet<ChunkIndex>> chunks = new TreeMap<>();
    chunkChanges.forEach((node, changes) -> {
      if (!changes.isEmpty()) {
        chunks.put(node, new TreeSet<>(changes.keySet()));
      }
    });
    return new TransactionLog(id, newGroups, newArrays, deletedGroups, deletedArrays,
        updatedArrays, updatedGroups, chunks, List.of());
  }

  private void clearChanges() {
    added.clear();
    updatedUserData.clear();
    deleted.clear();
    chunkChanges.clear();
  }

  // ---------------------------------------------------------------- rebase

  /**
   * Moves this session onto the branch's current tip. Every commit between the old base and the
   * tip is checked through its transaction log: the same chunk written on both sides, the same
   * node's metadata changed on both sides, a node deleted on one side and changed on the other,
   * a node created at a path the tip already has, or a moved node is a conflict, and then
   * nothing changes and {@link RebaseConflictException} lists them all.
   */
  public void rebase() {
    RepoInfo info = repo.info();
    ObjectId12 tip = info.branches().get(branch);
    if (tip == null) {
      throw new IcechunkNotFoundException("branch '" + branch + "' no longer exists");
    }
    if (tip.equals(baseId)) {
      return;
    }
    List<ObjectId12> newer = new ArrayList<>();
    boolean reachesBase = false;
    for (RepoInfo.SnapshotInfo s : info.ancestry(tip)) {
      if (s.id().equals(baseId)) {
        reachesBase = true;
        break;
      }
      newer.add(0, s.id());
    }
    List<RebaseConflictException.Conflict> conflicts = new ArrayList<>();
    if (!reachesBase) {
      conflicts.add(new RebaseConflictException.Conflict(
          RebaseConflictException.Conflict.Kind.HISTORY_REWRITTEN, "/",
          "the branch was reset: " + baseId + " is not an ancestor of " + tip));
      throw new RebaseConflictException(branch, conflicts);
    }
    for (ObjectId12 id : newer) {
      findConflicts(objects.transactionLog(id), conflicts);
    }
    SnapshotFile tipSnapshot = objects.snapshot(tip);
    for (NodeSnapshot n : added.values()) {
      Optional<NodeSnapshot> there = tipSnapshot.node(n.path());
      if (there.isPresent() && !deleted.containsKey(there.get().id())) {
        conflicts.add(conflict(RebaseConflictException.Conflict.Kind.NODE_CREATED_TWICE, n.path(),
            "created here and in a commit since " + baseId));
      }
    }
    if (!conflicts.isEmpty()) {
      throw new RebaseConflictException(branch, conflicts);
    }
    // Deletions another commit already made need no repeating (moves were conflicts above).
    deleted.entrySet().removeIf(e -> tipSnapshot.node(e.getValue().path())
        .filter(there -> there.id().equals(e.getKey())).isEmpty());
    setBase(tip, tipSnapshot);
  }

  private void findConflicts(TransactionLog theirs, List<RebaseConflictException.Conflict> out) {
    Set<NodeId> theirDeleted = new TreeSet<>(theirs.deletedArrays());
    theirDeleted.addAll(theirs.deletedGroups());
    Set<NodeId> theirMetadata = new TreeSet<>(theirs.updatedArrays());
    theirMetadata.addAll(theirs.updatedGroups());
    Set<NodeId> theirMoved = new TreeSet<>();
    theirs.movedNodes().forEach(m -> theirMoved.add(m.nodeId()));
    for (Map.Entry<NodeId, Update> e : updatedUserData.entrySet()) {
      if (theirMetadata.contains(e.getKey())) {
        out.add(conflict(RebaseConflictException.Conflict.Kind.NODE_METADATA_DOUBLE_UPDATE,
            pathOf(e.getKey()), "zarr.json changed here and in " + theirs.id()));
      }
    }
    for (Map.Entry<NodeId, SortedMap<ChunkIndex, Optional<ChunkPayload>>> e
        : chunkChanges.entrySet()) {
      SortedSet<ChunkIndex> theirChunks = theirs.updatedChunks().get(e.getKey());
      if (theirChunks == null) {
        continue;
      }
      for (ChunkIndex index : e.getValue().keySet()) {
        if (theirChunks.contains(index)) {
          out.add(conflict(RebaseConflictException.Conflict.Kind.CHUNK_DOUBLE_UPDATE,
              pathOf(e.getKey()), "chunk " + index + " written here and in " + theirs.id()));
        }
      }
    }
    Set<NodeId> mine = new TreeSet<>(updatedUserData.keySet());
    mine.addAll(chunkChanges.keySet());
    for (NodeId id : mine) {
      if (theirDeleted.contains(id)) {
        out.add(conflict(RebaseConflictException.Conflict.Kind.UPDATED_NODE_DELETED, pathOf(id),
            "changed here, deleted in " + theirs.id()));
      }
    }
    for (NodeId id : deleted.keySet()) {
      if (theirMetadata.contains(id) || theirs.updatedChunks().containsKey(id)) {
        out.add(conflict(RebaseConflictException.Conflict.Kind.DELETED_NODE_UPDATED, pathOf(id),
            "deleted here, changed in " + theirs.id()));
      }
    }
    mine.addAll(deleted.keySet());
    for (NodeId id : mine) {
      if (theirMoved.contains(id)) {
        out.add(conflict(RebaseConflictException.Conflict.Kind.NODE_MOVED, pathOf(id),
            "moved in " + theirs.id()));
      }
    }
  }

  private static RebaseConflictException.Conflict conflict(
      RebaseConflictException.Conflict.Kind kind, String path, String detail) {
    return new RebaseConflictException.Conflict(kind, path, detail);
  }

  private String pathOf(NodeId id) {
    if (updatedUserData.containsKey(id)) {
      return updatedUserData.get(id).path();
    }
    if (deleted.containsKey(id)) {
      return deleted.get(id).path();
    }
    for (NodeSnapshot n : base.nodes()) {
      if (n.id().equals(id)) {
        return n.path();
      }
    }
    for (NodeSnapshot n : added.values()) {
      if (n.id().equals(id)) {
        return n.path();
      }
    }
    return id.toString();
  }
}
