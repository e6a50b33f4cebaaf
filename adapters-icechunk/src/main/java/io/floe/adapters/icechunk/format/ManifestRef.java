package io.floe.adapters.icechunk.format;

import java.util.List;

/**
 * A snapshot's pointer from an array to one manifest, with the chunk-grid region the manifest
 * covers: per dimension {@code [from, to)}.
 */
public record ManifestRef(ObjectId12 manifestId, List<long[]> extents) {

  public boolean covers(ChunkIndex index) {
    if (index.rank() != extents.size()) {
      return false;
    }
    for (int d = 0; d < extents.size(); d++) {
      long[] range = extents.get(d);
      if (index.get(d) < range[0] || index.get(d) >= range[1]) {
        return false;
      }
    }
    return true;
  }
}
