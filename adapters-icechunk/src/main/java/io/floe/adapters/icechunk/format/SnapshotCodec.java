package io.floe.adapters.icechunk.format;

import com.google.flatbuffers.FlatBufferBuilder;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/** Reads snapshot files of spec 1 and 2 and writes spec-2 ones ({@code Snapshot} of snapshot.fbs). */
public final class SnapshotCodec {
  // Snapshot slots.
  static final int ID = 0;
  static final int PARENT_ID = 1;
  static final int NODES = 2;
  static final int FLUSHED_AT = 3;
  static final int MESSAGE = 4;
  static final int METADATA = 5;
  static final int MANIFEST_FILES = 6;
  static final int MANIFEST_FILES_V2 = 7;
  // NodeSnapshot slots; the node_data union takes a type slot then a value slot.
  static final int NODE_ID = 0;
  static final int NODE_PATH = 1;
  private static final int NODE_USER_DATA = 2;
  private static final int NODE_DATA_TYPE = 3;
  private static final int NODE_DATA = 4;
  private static final int UNION_ARRAY = 1;
  private static final int UNION_GROUP = 2;
  // ArrayNodeData slots.
  private static final int ARRAY_SHAPE_V1 = 0;
  private static final int ARRAY_DIMENSION_NAMES = 1;
  private static final int ARRAY_MANIFESTS = 2;
  private static final int ARRAY_SHAPE_V2 = 3;
  /** v1 ManifestFileInfo struct: 12-byte id, 4 padding, u64 size, u32 count, 4 padding. */
  private static final int V1_MANIFEST_INFO_SIZE = 32;

  private SnapshotCodec() {}

  /** The whole snapshot decoded; {@link SnapshotFile#open} reads only what is asked for. */
  public static Snapshot decode(String objectName, byte[] file) {
    return SnapshotFile.open(objectName, file).toSnapshot();
  }

  static List<ManifestFileInfo> manifestFiles(FbTable t) {
    List<ManifestFileInfo> files = new ArrayList<>();
    if (t.has(MANIFEST_FILES_V2)) {
      for (FbTable m : t.tables(MANIFEST_FILES_V2)) {
        files.add(new ManifestFileInfo(new ObjectId12(m.struct(0, ObjectId12.LENGTH)),
            m.u64(1, 0), m.u32(2, 0)));
      }
    }
    for (byte[] s : t.structs(MANIFEST_FILES, V1_MANIFEST_INFO_SIZE)) {
      files.add(new ManifestFileInfo(new ObjectId12(java.util.Arrays.copyOf(s, 12)),
          FbTable.leLong(s, 16), FbTable.leUInt(s, 24)));
    }
    return files;
  }

  static NodeSnapshot decodeNode(FbTable n) {
    NodeId id = new NodeId(n.struct(NODE_ID, NodeId.LENGTH));
    String path = n.string(NODE_PATH);
    byte[] userData = n.bytes(NODE_USER_DATA);
    if (path == null || userData == null) {
      throw new IllegalArgumentException("node " + id + " lacks its "
          + (path == null ? "path" : "zarr.json (user_data)"));
    }
    int kind = n.u8(NODE_DATA_TYPE, 0);
    if (kind == UNION_GROUP) {
      return NodeSnapshot.group(id, path, userData);
    }
    if (kind != UNION_ARRAY) {
      throw new IcechunkFormatException("node " + path + " has unknown node data type " + kind);
    }
    FbTable a = n.table(NODE_DATA);
    List<DimensionShape> shape = new ArrayList<>();
    if (a.has(ARRAY_SHAPE_V2)) {
      for (FbTable d : a.tables(ARRAY_SHAPE_V2)) {
        shape.add(new DimensionShape(d.u64(0, 0), d.u32(1, 0)));
      }
    } else {
      // Spec 1 stored the chunk length; the chunk count is derived from it.
      for (byte[] s : a.structs(ARRAY_SHAPE_V1, 16)) {
        long length = FbTable.leLong(s, 0);
        long chunk = FbTable.leLong(s, 8);
        shape.add(new DimensionShape(length, chunk == 0 ? 0 : (length + chunk - 1) / chunk));
      }
    }
    List<String> dimensionNames = null;
    if (a.has(ARRAY_DIMENSION_NAMES)) {
      dimensionNames = new ArrayList<>();
      for (FbTable d : a.tables(ARRAY_DIMENSION_NAMES)) {
        dimensionNames.add(d.string(0));
      }
    }
    List<ManifestRef> manifests = new ArrayList<>();
    for (FbTable m : a.tables(ARRAY_MANIFESTS)) {
      List<long[]> extents = m.structs(1, 8).stream()
          .map(s -> new long[] {FbTable.leUInt(s, 0), FbTable.leUInt(s, 4)})
          .toList();
      manifests.add(new ManifestRef(new ObjectId12(m.struct(0, ObjectId12.LENGTH)), extents));
    }
    return new NodeSnapshot(id, path, userData, NodeSnapshot.NodeType.ARRAY, shape,
        dimensionNames, manifests);
  }

  /** Writes a spec-2 snapshot file; see {@link #encodePayload}. */
  public static byte[] encode(Snapshot s) {
    return seal(encodePayload(s));
  }

  /** Compresses a snapshot FlatBuffer into a spec-2 snapshot file. */
  public static byte[] seal(byte[] flatbuffer) {
    return Envelope.seal(SpecVersion.V2, FileType.SNAPSHOT, flatbuffer);
  }

  /**
   * The spec-2 snapshot FlatBuffer, uncompressed; nodes are sorted by path bytes and manifests by
   * id, as required.
   */
  public static byte[] encodePayload(Snapshot s) {
    FlatBufferBuilder b = new FlatBufferBuilder(4096);
    List<NodeSnapshot> nodes = new ArrayList<>(s.nodes());
    nodes.sort(Comparator.comparing(NodeSnapshot::path, FlexJson::compareUtf8));
    int[] nodeOffsets = new int[nodes.size()];
    for (int i = 0; i < nodes.size(); i++) {
      nodeOffsets[i] = encodeNode(b, nodes.get(i));
    }
    int nodeVector = FbWrite.tableVector(b, nodeOffsets);
    int message = b.createString(s.message());
    int metadata = FbWrite.metadataVector(b, s.metadata());
    b.startVector(V1_MANIFEST_INFO_SIZE, 0, 8);
    int emptyV1Files = b.endVector();
    List<ManifestFileInfo> files = new ArrayList<>(s.manifestFiles());
    files.sort(Comparator.comparing(ManifestFileInfo::id));
    int[] fileOffsets = new int[files.size()];
    for (int i = 0; i < files.size(); i++) {
      ManifestFileInfo f = files.get(i);
      b.startTable(4);
      FbWrite.addIdStruct(b, 0, f.id().bytes());
      b.addLong(1, f.sizeBytes(), 0);
      b.addInt(2, (int) f.numChunkRefs(), 0);
      fileOffsets[i] = b.endTable();
    }
    int filesV2 = FbWrite.tableVector(b, fileOffsets);
    b.startTable(9);
    FbWrite.addIdStruct(b, ID, s.id().bytes());
    b.addOffset(NODES, nodeVector, 0);
    b.addLong(FLUSHED_AT, s.flushedAtMicros(), 0);
    b.addOffset(MESSAGE, message, 0);
    b.addOffset(METADATA, metadata, 0);
    b.addOffset(MANIFEST_FILES, emptyV1Files, 0);
    b.addOffset(MANIFEST_FILES_V2, filesV2, 0);
    return FbWrite.finish(b, b.endTable());
  }

  private static int encodeNode(FlatBufferBuilder b, NodeSnapshot n) {
    int path = b.createString(n.path());
    int userData = b.createByteVector(n.userData());
    int data;
    if (n.isArray()) {
      b.startVector(16, 0, 8);
      int emptyV1Shape = b.endVector();
      int names = 0;
      if (n.dimensionNames() != null) {
        int[] nameOffsets = new int[n.dimensionNames().size()];
        for (int i = 0; i < nameOffsets.length; i++) {
          String name = n.dimensionNames().get(i);
          int str = name == null ? 0 : b.createString(name);
          b.startTable(1);
          b.addOffset(0, str, 0);
          nameOffsets[i] = b.endTable();
        }
        names = FbWrite.tableVector(b, nameOffsets);
      }
      int[] refOffsets = new int[n.manifests().size()];
      for (int i = 0; i < refOffsets.length; i++) {
        ManifestRef ref = n.manifests().get(i);
        b.startVector(8, ref.extents().size(), 4);
        for (int d = ref.extents().size() - 1; d >= 0; d--) {
          b.putInt((int) ref.extents().get(d)[1]);
          b.putInt((int) ref.extents().get(d)[0]);
        }
        int extents = b.endVector();
        b.startTable(2);
        FbWrite.addIdStruct(b, 0, ref.manifestId().bytes());
        b.addOffset(1, extents, 0);
        refOffsets[i] = b.endTable();
      }
      int manifests = FbWrite.tableVector(b, refOffsets);
      int[] dimOffsets = new int[n.shape().size()];
      for (int i = 0; i < dimOffsets.length; i++) {
        b.startTable(2);
        b.addLong(0, n.shape().get(i).arrayLength(), 0);
        b.addInt(1, (int) n.shape().get(i).numChunks(), 0);
        dimOffsets[i] = b.endTable();
      }
      int shapeV2 = FbWrite.tableVector(b, dimOffsets);
      b.startTable(4);
      b.addOffset(ARRAY_SHAPE_V1, emptyV1Shape, 0);
      b.addOffset(ARRAY_DIMENSION_NAMES, names, 0);
      b.addOffset(ARRAY_MANIFESTS, manifests, 0);
      b.addOffset(ARRAY_SHAPE_V2, shapeV2, 0);
      data = b.endTable();
    } else {
      b.startTable(0);
      data = b.endTable();
    }
    b.startTable(6);
    FbWrite.addIdStruct(b, NODE_ID, n.id().bytes());
    b.addOffset(NODE_PATH, path, 0);
    b.addOffset(NODE_USER_DATA, userData, 0);
    b.addByte(NODE_DATA_TYPE, (byte) (n.isArray() ? UNION_ARRAY : UNION_GROUP), 0);
    b.addOffset(NODE_DATA, data, 0);
    return b.endTable();
  }
}
