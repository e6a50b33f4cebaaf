package io.floe.adapters.icechunk.format;

import java.util.Map;
import java.util.SortedMap;

/** A manifest file: per array (by node id) its chunk references, sorted by chunk index. */
public record Manifest(ObjectId12 id, SortedMap<NodeId, SortedMap<ChunkIndex, ChunkPayload>> arrays) {

  public int chunkRefCount() {
    return arrays.values().stream().mapToInt(Map::size).sum();
  }
}
