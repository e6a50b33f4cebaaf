package io.floe.adapters.icechunk.engine;

import io.floe.adapters.icechunk.format.ChunkIndex;
import io.floe.adapters.icechunk.format.ChunkPayload;
import io.floe.adapters.icechunk.format.Manifest;
import io.floe.adapters.icechunk.format.ManifestRef;
import io.floe.adapters.icechunk.format.NodeSnapshot;
import io.floe.adapters.icechunk.format.ObjectId12;
import io.floe.adapters.icechunk.format.SnapshotFile;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * A consistent view of one snapshot: its nodes, their zarr.json, attributes and chunks. The
 * snapshot is read lazily (see {@link SnapshotFile}): a lookup decodes one node.
 */
public class ReadSession {
  final RepoObjects objects;
  SnapshotFile base;
  ObjectId12 baseId;

  ReadSession(RepoObjects objects, ObjectId12 id, SnapshotFile base) {
    this.objects = objects;
    setBase(id, base);
  }

  final void setBase(ObjectId12 id, SnapshotFile snapshot) {
    this.baseId = id;
    this.base = snapshot;
  }

  /** The snapshot this session reads (for a writable session: the parent of its next commit). */
  public ObjectId12 snapshotId() {
    return baseId;
  }

  /** All nodes, sorted by path bytes. */
  public List<NodeSnapshot> nodes() {
    return base.nodes();
  }

  public Optional<NodeSnapshot> node(String path) {
    return base.node(NodePaths.canonical(path));
  }

  /** The direct children of a group, sorted by path. */
  public List<NodeSnapshot> children(String path) {
    return base.children(NodePaths.canonical(path));
  }

  /** The node at {@code path}; a missing one is an {@link IcechunkNotFoundException}. */
  public final NodeSnapshot requireNode(String path) {
    return node(path).orElseThrow(() -> new IcechunkNotFoundException("no node at '"
        + NodePaths.canonical(path) + "' in snapshot " + baseId));
  }

  public byte[] zarrJson(String path) {
    return requireNode(path).userData().clone();
  }

  public Map<String, Object> attributes(String path) {
    NodeSnapshot n = requireNode(path);
    String where = "node '" + n.path() + "' of snapshot " + baseId;
    return ZarrMetadata.parse(where, n.userData()).attributes(where);
  }

  /** The chunk's stored (encoded) bytes; empty when the chunk was never written. */
  public Optional<byte[]> chunk(String path, ChunkIndex index) {
    NodeSnapshot n = requireNode(path);
    return chunkPayload(n, index).map(p -> resolve(n.path(), index, p));
  }

  /** Every chunk reference of an array, by chunk index. */
  public SortedMap<ChunkIndex, ChunkPayload> chunkRefs(String path) {
    NodeSnapshot n = requireNode(path);
    return chunkRefsOf(n);
  }

  SortedMap<ChunkIndex, ChunkPayload> chunkRefsOf(NodeSnapshot n) {
    return baseChunkRefs(n);
  }

  /** The chunk refs a node has in the base snapshot (through all its manifests). */
  final SortedMap<ChunkIndex, ChunkPayload> baseChunkRefs(NodeSnapshot n) {
    SortedMap<ChunkIndex, ChunkPayload> out = new TreeMap<>();
    if (!n.isArray()) {
      return out;
    }
    for (ManifestRef ref : n.manifests()) {
      Manifest m = objects.manifest(ref.manifestId());
      SortedMap<ChunkIndex, ChunkPayload> refs = m.arrays().get(n.id());
      if (refs != null) {
        out.putAll(refs);
      }
    }
    return out;
  }

  Optional<ChunkPayload> chunkPayload(NodeSnapshot n, ChunkIndex index) {
    if (!n.isArray()) {
      throw new IcechunkException("'" + n.path() + "' is a group; groups have no chunks");
    }
    for (ManifestRef ref : n.manifests()) {
      if (ref.covers(index)) {
        Manifest m = objects.manifest(ref.manifestId());
        SortedMap<ChunkIndex, ChunkPayload> refs = m.arrays().get(n.id());
        ChunkPayload p = refs == null ? null : refs.get(index);
        if (p != null) {
          return Optional.of(p);
        }
      }
    }
    return Optional.empty();
  }

  final byte[] resolve(String path, ChunkIndex index, ChunkPayload payload) {
    if (payload instanceof ChunkPayload.Inline inline) {
      return inline.data().clone();
    }
    if (payload instanceof ChunkPayload.Native nat) {
      return objects.chunk(nat.chunkId(), nat.offset(), nat.length());
    }
    ChunkPayload.Virtual v = (ChunkPayload.Virtual) payload;
    throw new IcechunkException("chunk " + index + " of '" + path + "' is a virtual reference to "
        + v.location() + "; Floe does not fetch virtual chunks");
  }
}
