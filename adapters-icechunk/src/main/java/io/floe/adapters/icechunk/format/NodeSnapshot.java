package io.floe.adapters.icechunk.format;

import java.util.List;

/**
 * A group or array of a snapshot. {@code userData} is the node's {@code zarr.json} as stored.
 * For groups the array fields are empty.
 */
public record NodeSnapshot(NodeId id, String path, byte[] userData, NodeType type,
    List<DimensionShape> shape, List<String> dimensionNames, List<ManifestRef> manifests) {

  public enum NodeType { GROUP, ARRAY }

  public static NodeSnapshot group(NodeId id, String path, byte[] userData) {
    return new NodeSnapshot(id, path, userData, NodeType.GROUP, List.of(), null, List.of());
  }

  public boolean isArray() {
    return type == NodeType.ARRAY;
  }

  public NodeSnapshot withUserData(byte[] data) {
    return new NodeSnapshot(id, path, data, type, shape, dimensionNames, manifests);
  }

  public NodeSnapshot withManifests(List<ManifestRef> refs) {
    return new NodeSnapshot(id, path, userData, type, shape, dimensionNames, refs);
  }
}
