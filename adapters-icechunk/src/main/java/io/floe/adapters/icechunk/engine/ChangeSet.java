package io.floe.adapters.icechunk.engine;

import io.floe.adapters.icechunk.format.ChunkIndex;
import io.floe.adapters.icechunk.format.ChunkPayload;
import io.floe.adapters.icechunk.format.FlexJson;
import io.floe.adapters.icechunk.format.NodeId;
import io.floe.adapters.icechunk.format.NodeSnapshot;
import io.floe.adapters.icechunk.format.ObjectId12;
import io.floe.adapters.icechunk.format.SnapshotFile;
import io.floe.adapters.icechunk.format.TransactionLog;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.Iterator;
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
 * What a writable session changed on top of its base snapshot, keyed by node id: nodes created,
 * nodes whose zarr.json changed, nodes deleted, chunks written or deleted. It tells how the base
 * looks with the changes applied, what a commit's transaction log records of them, and which of
 * them another commit's transaction log conflicts with. It stores nothing. Not thread-safe.
 */
final class ChangeSet {
  /** Nodes created, by path. */
  private final SortedMap<String, NodeSnapshot> added = new TreeMap<>(FlexJson::compareUtf8);
  /** New zarr.json of nodes that exist in the base snapshot. */
  private final Map<NodeId, Update> updatedUserData = new HashMap<>();
  /** Base-snapshot nodes deleted, with their path and type. */
  private final Map<NodeId, NodeSnapshot> deleted = new LinkedHashMap<>();
  /** Chunk writes per node; an empty Optional deletes the chunk. */
  private final Map<NodeId, SortedMap<ChunkIndex, Optional<ChunkPayload>>> chunkChanges =
      new HashMap<>();

  /** A base-snapshot node's new zarr.json, with what the transaction log needs to know of it. */
  private record Update(String path, NodeSnapshot.NodeType type, byte[] zarrJson) {}

  boolean isEmpty() {
    return added.isEmpty() && updatedUserData.isEmpty() && deleted.isEmpty()
        && chunkChanges.isEmpty();
  }

  /** Whether any node was created, deleted or given a new zarr.json. */
  boolean changesNodes() {
    return !added.isEmpty() || !deleted.isEmpty() || !updatedUserData.isEmpty();
  }

  void clear() {
    added.clear();
    updatedUserData.clear();
    deleted.clear();
    chunkChanges.clear();
  }

  // ---------------------------------------------------------------- the base with the changes

  /** The base snapshot's nodes (already in path order) with the changes applied. */
  List<NodeSnapshot> applyTo(List<NodeSnapshot> baseNodes) {
    List<NodeSnapshot> out = new ArrayList<>(baseNodes.size() + added.size());
    Iterator<NodeSnapshot> newNodes = added.values().iterator();
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

  /** The node at a canonical path, with the changes applied. */
  Optional<NodeSnapshot> node(SnapshotFile base, String path) {
    NodeSnapshot a = added.get(path);
    if (a != null) {
      return Optional.of(a);
    }
    return base.node(path).filter(b -> !deleted.containsKey(b.id())).map(this::current);
  }

  /** A base node with its metadata change applied. */
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

  /** Whether the node was created here (its chunks then all come from here). */
  boolean isAdded(NodeSnapshot n) {
    NodeSnapshot a = added.get(n.path());
    return a != null && a.id().equals(n.id());
  }

  /** A chunk this change set wrote (present) or deleted (an empty payload); empty otherwise. */
  Optional<Optional<ChunkPayload>> chunk(NodeSnapshot n, ChunkIndex index) {
    SortedMap<ChunkIndex, Optional<ChunkPayload>> changes = chunkChanges.get(n.id());
    return changes != null && changes.containsKey(index)
        ? Optional.of(changes.get(index)) : Optional.empty();
  }

  /** {@code refs} (the base's chunks of the node) with this change set's writes applied. */
  SortedMap<ChunkIndex, ChunkPayload> applyChunks(NodeSnapshot n,
      SortedMap<ChunkIndex, ChunkPayload> refs) {
    SortedMap<ChunkIndex, Optional<ChunkPayload>> changes = chunkChanges.get(n.id());
    if (changes != null) {
      changes.forEach((index, payload) -> {
        if (payload.isPresent()) {
          refs.put(index, payload.get());
        } else {
          refs.remove(index);
        }
      });
    }
    return refs;
  }

  /** Whether the node's chunks changed (its manifest must then be written anew). */
  boolean changesChunksOf(NodeSnapshot n) {
    return chunkChanges.containsKey(n.id());
  }

  // ---------------------------------------------------------------- changes

  /** Records a new node, or a node created here replaced by another of its path. */
  void create(NodeSnapshot node) {
    added.put(node.path(), node);
  }

  /** Records a base node's new zarr.json. */
  void update(NodeSnapshot baseNode, byte[] zarrJson) {
    updatedUserData.put(baseNode.id(), new Update(baseNode.path(), baseNode.type(), zarrJson));
  }

  /** Records that a node is gone, with its chunks. */
  void delete(NodeSnapshot n) {
    chunkChanges.remove(n.id());
    if (isAdded(n)) {
      added.remove(n.path());
    } else {
      updatedUserData.remove(n.id());
      deleted.put(n.id(), n);
    }
  }

  /** Records a chunk written (a payload) or deleted (none). */
  void setChunk(NodeSnapshot n, ChunkIndex index, Optional<ChunkPayload> payload) {
    chunkChanges.computeIfAbsent(n.id(), k -> new TreeMap<>()).put(index, payload);
  }

  // ---------------------------------------------------------------- commit and rebase

  /** What the commit {@code id} of these changes records in its transaction log. */
  TransactionLog transactionLog(ObjectId12 id) {
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

  /**
   * Adds to {@code out} what another commit's transaction log conflicts with: the same chunk
   * written on both sides, the same node's metadata changed on both sides, a node deleted on one
   * side and changed on the other, a moved node.
   */
  void findConflicts(TransactionLog theirs, SnapshotFile base,
      List<RebaseConflictException.Conflict> out) {
    Set<NodeId> theirDeleted = new TreeSet<>(theirs.deletedArrays());
    theirDeleted.addAll(theirs.deletedGroups());
    Set<NodeId> theirMetadata = new TreeSet<>(theirs.updatedArrays());
    theirMetadata.addAll(theirs.updatedGroups());
    Set<NodeId> theirMoved = new TreeSet<>();
    theirs.movedNodes().forEach(m -> theirMoved.add(m.nodeId()));
    for (Map.Entry<NodeId, Update> e : updatedUserData.entrySet()) {
      if (theirMetadata.contains(e.getKey())) {
        out.add(conflict(RebaseConflictException.Conflict.Kind.NODE_METADATA_DOUBLE_UPDATE,
            e.getValue().path(), "zarr.json changed here and in " + theirs.id()));
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
              pathOf(e.getKey(), base), "chunk " + index + " written here and in "
                  + theirs.id()));
        }
      }
    }
    Set<NodeId> mine = new TreeSet<>(updatedUserData.keySet());
    mine.addAll(chunkChanges.keySet());
    for (NodeId id : mine) {
      if (theirDeleted.contains(id)) {
        out.add(conflict(RebaseConflictException.Conflict.Kind.UPDATED_NODE_DELETED,
            pathOf(id, base), "changed here, deleted in " + theirs.id()));
      }
    }
    for (NodeId id : deleted.keySet()) {
      if (theirMetadata.contains(id) || theirs.updatedChunks().containsKey(id)) {
        out.add(conflict(RebaseConflictException.Conflict.Kind.DELETED_NODE_UPDATED,
            pathOf(id, base), "deleted here, changed in " + theirs.id()));
      }
    }
    mine.addAll(deleted.keySet());
    for (NodeId id : mine) {
      if (theirMoved.contains(id)) {
        out.add(conflict(RebaseConflictException.Conflict.Kind.NODE_MOVED, pathOf(id, base),
            "moved in " + theirs.id()));
      }
    }
  }

  /** Adds to {@code out} each node created here at a path {@code tip} already has. */
  void findCreatedTwice(SnapshotFile tip, ObjectId12 baseId,
      List<RebaseConflictException.Conflict> out) {
    for (NodeSnapshot n : added.values()) {
      Optional<NodeSnapshot> there = tip.node(n.path());
      if (there.isPresent() && !deleted.containsKey(there.get().id())) {
        out.add(conflict(RebaseConflictException.Conflict.Kind.NODE_CREATED_TWICE, n.path(),
            "created here and in a commit since " + baseId));
      }
    }
  }

  /** Forgets deletions another commit already made in {@code tip} (moves were conflicts). */
  void forgetDeletionsMadeIn(SnapshotFile tip) {
    deleted.entrySet().removeIf(e -> tip.node(e.getValue().path())
        .filter(there -> there.id().equals(e.getKey())).isEmpty());
  }

  private static RebaseConflictException.Conflict conflict(
      RebaseConflictException.Conflict.Kind kind, String path, String detail) {
    return new RebaseConflictException.Conflict(kind, path, detail);
  }

  private String pathOf(NodeId id, SnapshotFile base) {
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
