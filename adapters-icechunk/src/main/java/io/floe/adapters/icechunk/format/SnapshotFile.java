package io.floe.adapters.icechunk.format;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.Supplier;

/**
 * A snapshot file read lazily, as Icechunk itself reads it: opening only decompresses; a node is
 * found by binary search over the node vector, which the format keeps sorted by path bytes, and
 * only the nodes asked for are decoded. Opening a snapshot of many nodes therefore costs about
 * the same as opening a small one.
 *
 * <p>Damage surfaces when the damaged part is read, always as an {@link IcechunkFormatException}
 * naming the file.
 */
public final class SnapshotFile {
  private final String objectName;
  private final SpecVersion specVersion;
  private final FbTable root;
  private final int nodeCount;
  /** Decoded on the first request for all nodes, then kept: snapshots never change. */
  private volatile List<NodeSnapshot> allNodes;

  private SnapshotFile(String objectName, SpecVersion specVersion, FbTable root) {
    this.objectName = objectName;
    this.specVersion = specVersion;
    this.root = root;
    this.nodeCount = read(() -> root.vectorLength(SnapshotCodec.NODES));
  }

  /** Opens a stored snapshot file (header, compression, FlatBuffer). */
  public static SnapshotFile open(String objectName, byte[] file) {
    Envelope.Opened opened = Envelope.open(objectName, file, FileType.SNAPSHOT);
    return fromPayload(objectName, opened.specVersion(), opened.payload());
  }

  /** A view of an uncompressed snapshot FlatBuffer, e.g. the one just written. */
  public static SnapshotFile fromPayload(String objectName, SpecVersion version, byte[] flatbuffer) {
    try {
      return new SnapshotFile(objectName, version, FbTable.root(flatbuffer));
    } catch (IcechunkFormatException e) {
      throw e;
    } catch (RuntimeException e) {
      throw FbWrite.corrupt(objectName, "snapshot", e);
    }
  }

  public String objectName() {
    return objectName;
  }

  public SpecVersion specVersion() {
    return specVersion;
  }

  public ObjectId12 id() {
    return read(() -> new ObjectId12(root.struct(SnapshotCodec.ID, ObjectId12.LENGTH)));
  }

  /** Only spec 1 stores the parent here; spec 2 keeps parents in the repo info file. */
  public ObjectId12 parentId() {
    return read(() -> {
      byte[] parent = root.struct(SnapshotCodec.PARENT_ID, ObjectId12.LENGTH);
      return parent == null ? null : new ObjectId12(parent);
    });
  }

  public long flushedAtMicros() {
    return read(() -> root.u64(SnapshotCodec.FLUSHED_AT, 0));
  }

  public String message() {
    return read(() -> root.string(SnapshotCodec.MESSAGE));
  }

  public List<MetadataItem> metadata() {
    return read(() -> FbWrite.readMetadata(root, SnapshotCodec.METADATA));
  }

  public List<ManifestFileInfo> manifestFiles() {
    return read(() -> SnapshotCodec.manifestFiles(root));
  }

  public int nodeCount() {
    return nodeCount;
  }

  /** The node at a canonical path, found by binary search. */
  public Optional<NodeSnapshot> node(String path) {
    byte[] key = path.getBytes(StandardCharsets.UTF_8);
    return read(() -> {
      int low = 0;
      int high = nodeCount - 1;
      while (low <= high) {
        int mid = (low + high) >>> 1;
        FbTable n = root.element(SnapshotCodec.NODES, mid);
        int c = n.compareString(SnapshotCodec.NODE_PATH, key);
        if (c < 0) {
          low = mid + 1;
        } else if (c > 0) {
          high = mid - 1;
        } else {
          return Optional.of(SnapshotCodec.decodeNode(n));
        }
      }
      return Optional.empty();
    });
  }

  /**
   * The nodes directly below a group, in path order: a binary search to the first path under
   * it, then a scan over its subtree that decodes only the direct children.
   */
  public List<NodeSnapshot> children(String path) {
    String prefix = path.equals("/") ? "/" : path + "/";
    byte[] key = prefix.getBytes(StandardCharsets.UTF_8);
    return read(() -> {
      int low = 0;
      int high = nodeCount;
      while (low < high) {
        int mid = (low + high) >>> 1;
        if (root.element(SnapshotCodec.NODES, mid).compareString(SnapshotCodec.NODE_PATH, key) < 0) {
          low = mid + 1;
        } else {
          high = mid;
        }
      }
      List<NodeSnapshot> out = new ArrayList<>();
      for (int i = low; i < nodeCount; i++) {
        FbTable n = root.element(SnapshotCodec.NODES, i);
        if (!n.stringStartsWith(SnapshotCodec.NODE_PATH, key)) {
          break;
        }
        String p = n.string(SnapshotCodec.NODE_PATH);
        if (p.length() > prefix.length() && p.indexOf('/', prefix.length()) < 0) {
          out.add(SnapshotCodec.decodeNode(n));
        }
      }
      return out;
    });
  }

  /** Every node, in path order; decoded once. */
  public List<NodeSnapshot> nodes() {
    List<NodeSnapshot> nodes = allNodes;
    if (nodes == null) {
      nodes = read(() -> {
        List<NodeSnapshot> out = new ArrayList<>(nodeCount);
        for (int i = 0; i < nodeCount; i++) {
          out.add(SnapshotCodec.decodeNode(root.element(SnapshotCodec.NODES, i)));
        }
        return List.copyOf(out);
      });
      allNodes = nodes;
    }
    return nodes;
  }

  /** The whole snapshot decoded, e.g. to write a changed copy of it. */
  public Snapshot toSnapshot() {
    return new Snapshot(specVersion, id(), parentId(), nodes(), flushedAtMicros(), message(),
        metadata(), manifestFiles());
  }

  /** Runs a read of the FlatBuffer, turning damage into a format error naming this file. */
  private <T> T read(Supplier<T> work) {
    try {
      return work.get();
    } catch (IcechunkFormatException e) {
      throw e.getMessage() != null && e.getMessage().startsWith(objectName) ? e
          : new IcechunkFormatException(objectName + ": " + e.getMessage(), e);
    } catch (RuntimeException e) {
      throw FbWrite.corrupt(objectName, "snapshot", e);
    }
  }
}
