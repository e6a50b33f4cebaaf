package io.floe.adapters.icechunk.format;

import java.util.List;

/**
 * A snapshot file: the whole node tree of one commit. {@code parentId} is only stored by spec
 * version 1; spec 2 keeps parents in the repo info file. Nodes are sorted by path bytes.
 */
public record Snapshot(SpecVersion specVersion, ObjectId12 id, ObjectId12 parentId,
    List<NodeSnapshot> nodes, long flushedAtMicros, String message, List<MetadataItem> metadata,
    List<ManifestFileInfo> manifestFiles) {}
