package io.floe.adapters.icechunk.engine;

import io.floe.adapters.icechunk.format.ChunkIndex;
import io.floe.adapters.icechunk.format.ChunkPayload;
import io.floe.adapters.icechunk.format.NodeId;
import io.floe.adapters.icechunk.format.NodeSnapshot;
import io.floe.adapters.icechunk.format.ObjectId12;
import io.floe.adapters.icechunk.format.RepoInfo;
import io.floe.adapters.icechunk.format.SnapshotFile;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * Uncommitted changes on top of a branch tip: node metadata (zarr.json), node creation and
 * deletion, chunk writes. Reads see the changes. What changed is kept in a {@link ChangeSet},
 * keyed by node id, so after a {@link #rebase()} the changes apply to the new tip as long as
 * nobody else touched the same things; a {@link CommitWriter} publishes them. Not thread-safe.
 */
public final class WritableSession extends ReadSession {
  private final IcechunkRepository repo;
  private final String branch;
  private final ChangeSet changes = new ChangeSet();
  private final CommitWriter writer;
  private final int inlineThreshold;

  WritableSession(IcechunkRepository repo, RepoObjects objects, String branch, ObjectId12 baseId,
      SnapshotFile base, int inlineThreshold) {
    super(objects, baseId, base);
    this.repo = repo;
    this.branch = branch;
    this.writer = new CommitWriter(repo, objects);
    this.inlineThreshold = inlineThreshold;
  }

  public String branch() {
    return branch;
  }

  // ---------------------------------------------------------------- view

  /** The base snapshot's nodes (already in path order) merged with this session's changes. */
  @Override
  public List<NodeSnapshot> nodes() {
    return changes.applyTo(base.nodes());
  }

  @Override
  public Optional<NodeSnapshot> node(String path) {
    return changes.node(base, NodePaths.canonical(path));
  }

  @Override
  public List<NodeSnapshot> children(String path) {
    String p = NodePaths.canonical(path);
    if (!changes.changesNodes()) {
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

  @Override
  Optional<ChunkPayload> chunkPayload(NodeSnapshot n, ChunkIndex index) {
    Optional<Optional<ChunkPayload>> changed = changes.chunk(n, index);
    if (changed.isPresent()) {
      return changed.get();
    }
    if (changes.isAdded(n)) {
      return Optional.empty();
    }
    return super.chunkPayload(n, index);
  }

  @Override
  SortedMap<ChunkIndex, ChunkPayload> chunkRefsOf(NodeSnapshot n) {
    return changes.applyChunks(n, changes.isAdded(n) ? new TreeMap<>() : baseChunkRefs(n));
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
    if (existing.isPresent() && !changes.isAdded(existing.get())) {
      changes.update(existing.get(), data);
      return;
    }
    // A new node, or one this session created given another zarr.json: that one keeps its id.
    NodeId id = existing.map(NodeSnapshot::id).orElseGet(NodeId::random);
    changes.create(type == NodeSnapshot.NodeType.ARRAY
        ? new NodeSnapshot(id, p, data, type, meta.dimensionShapes(p), meta.dimensionNames(),
            List.of())
        : NodeSnapshot.group(id, p, data));
  }

  /** Replaces the attributes in a node's zarr.json, keeping the rest of the document. */
  public void setAttributes(String path, Map<String, ?> attributes) {
    NodeSnapshot n = requireNode(path);
    setMetadata(n.path(), ZarrMetadata.parse(n.path(), n.userData()).withAttributes(attributes));
  }

  /** Deletes a node and everything below it, with their chunks. */
  public void deleteNode(String path) {
    String p = NodePaths.canonical(path);
    List<NodeSnapshot> within = nodes().stream()
        .filter(n -> NodePaths.isWithin(n.path(), p)).toList();
    if (within.isEmpty()) {
      throw new IcechunkNotFoundException("nothing to delete at '" + p + "' in branch '"
          + branch + "'");
    }
    within.forEach(changes::delete);
  }

  /**
   * Stores a chunk's encoded bytes. Up to the repo config's inline threshold (default
   * {@link IcechunkRepository#INLINE_CHUNK_THRESHOLD_BYTES}) they go into the manifest; larger
   * ones are written now as a chunk object (as Icechunk does, so a session's memory does not grow
   * with its data).
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
    changes.setChunk(n, index, Optional.of(payload));
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
    payloads.forEach((index, payload) -> changes.setChunk(n, index, Optional.of(payload)));
  }

  public void deleteChunk(String path, ChunkIndex index) {
    changes.setChunk(requireArray(path, index), index, Optional.empty());
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
    if (!allowEmpty && changes.isEmpty()) {
      throw new IcechunkException("no changes to commit on branch '" + branch + "'");
    }
    CommitWriter.Written written = writer.write(branch, baseId, base, nodes(), changes,
        this::chunkRefsOf, message, metadata);
    changes.clear();
    setBase(written.id(), written.snapshot());
    return written.id();
  }

  /**
   * Commits; if the branch moved meanwhile, rebases (failing on real conflicts) and tries again,
   * at most {@code maxAttempts} times.
   */
  public ObjectId12 commitRebasing(String message, Map<String, ?> metadata, int maxAttempts) {
    return RebasingCommits.commit(maxAttempts, () -> commit(message, metadata), this::rebase);
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
      changes.findConflicts(objects.transactionLog(id), base, conflicts);
    }
    SnapshotFile tipSnapshot = objects.snapshot(tip);
    changes.findCreatedTwice(tipSnapshot, baseId, conflicts);
    if (!conflicts.isEmpty()) {
      throw new RebaseConflictException(branch, conflicts);
    }
    // Deletions another commit already made need no repeating (moves were conflicts above).
    changes.forgetDeletionsMadeIn(tipSnapshot);
    setBase(tip, tipSnapshot);
  }
}
