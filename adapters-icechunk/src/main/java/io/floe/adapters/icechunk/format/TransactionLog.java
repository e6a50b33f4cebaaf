package io.floe.adapters.icechunk.format;

import java.util.List;
import java.util.SortedMap;
import java.util.SortedSet;

/**
 * What one commit changed, by node id: the input of rebase and diff. Id lists are sorted by
 * bytes; chunk coordinates per array are sorted lexicographically.
 */
public record TransactionLog(ObjectId12 id, SortedSet<NodeId> newGroups, SortedSet<NodeId> newArrays,
    SortedSet<NodeId> deletedGroups, SortedSet<NodeId> deletedArrays,
    SortedSet<NodeId> updatedArrays, SortedSet<NodeId> updatedGroups,
    SortedMap<NodeId, SortedSet<ChunkIndex>> updatedChunks, List<Move> movedNodes) {

  /** A node that changed path in this commit. */
  public record Move(String from, String to, NodeId nodeId, NodeSnapshot.NodeType nodeType) {}

  public boolean isEmpty() {
    return newGroups.isEmpty() && newArrays.isEmpty() && deletedGroups.isEmpty()
        && deletedArrays.isEmpty() && updatedArrays.isEmpty() && updatedGroups.isEmpty()
        && updatedChunks.isEmpty() && movedNodes.isEmpty();
  }
}
