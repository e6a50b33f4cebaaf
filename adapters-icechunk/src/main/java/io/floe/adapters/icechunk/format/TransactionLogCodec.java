package io.floe.adapters.icechunk.format;

import com.google.flatbuffers.FlatBufferBuilder;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.SortedMap;
import java.util.SortedSet;
import java.util.TreeMap;
import java.util.TreeSet;

/** Reads transaction logs of spec 1 and 2 and writes spec-2 ones (transaction_log.fbs). */
public final class TransactionLogCodec {
  private static final int ID = 0;
  private static final int NEW_GROUPS = 1;
  private static final int NEW_ARRAYS = 2;
  private static final int DELETED_GROUPS = 3;
  private static final int DELETED_ARRAYS = 4;
  private static final int UPDATED_ARRAYS = 5;
  private static final int UPDATED_GROUPS = 6;
  private static final int UPDATED_CHUNKS = 7;
  private static final int MOVED_NODES = 8;

  private TransactionLogCodec() {}

  public static TransactionLog decode(String objectName, byte[] file) {
    Envelope.Opened opened = Envelope.open(objectName, file, FileType.TRANSACTION_LOG);
    try {
      FbTable t = FbTable.root(opened.payload());
      SortedMap<NodeId, SortedSet<ChunkIndex>> chunks = new TreeMap<>();
      for (FbTable a : t.tables(UPDATED_CHUNKS)) {
        SortedSet<ChunkIndex> set = new TreeSet<>();
        for (FbTable c : a.tables(1)) {
          set.add(new ChunkIndex(c.u32s(0)));
        }
        chunks.put(new NodeId(a.struct(0, NodeId.LENGTH)), set);
      }
      List<TransactionLog.Move> moves = new ArrayList<>();
      for (FbTable m : t.tables(MOVED_NODES)) {
        moves.add(new TransactionLog.Move(m.string(0), m.string(1),
            new NodeId(m.struct(2, NodeId.LENGTH)), m.u8(3, 0) == 0
                ? NodeSnapshot.NodeType.GROUP : NodeSnapshot.NodeType.ARRAY));
      }
      return new TransactionLog(new ObjectId12(t.struct(ID, ObjectId12.LENGTH)),
          ids(t, NEW_GROUPS), ids(t, NEW_ARRAYS), ids(t, DELETED_GROUPS), ids(t, DELETED_ARRAYS),
          ids(t, UPDATED_ARRAYS), ids(t, UPDATED_GROUPS), chunks, moves);
    } catch (RuntimeException e) {
      throw FbWrite.corrupt(objectName, "transaction log", e);
    }
  }

  private static SortedSet<NodeId> ids(FbTable t, int slot) {
    SortedSet<NodeId> out = new TreeSet<>();
    for (byte[] b : t.structs(slot, NodeId.LENGTH)) {
      out.add(new NodeId(b));
    }
    return out;
  }

  public static byte[] encode(TransactionLog log) {
    FlatBufferBuilder b = new FlatBufferBuilder(1024);
    int newGroups = FbWrite.nodeIdVector(b, log.newGroups());
    int newArrays = FbWrite.nodeIdVector(b, log.newArrays());
    int deletedGroups = FbWrite.nodeIdVector(b, log.deletedGroups());
    int deletedArrays = FbWrite.nodeIdVector(b, log.deletedArrays());
    int updatedArrays = FbWrite.nodeIdVector(b, log.updatedArrays());
    int updatedGroups = FbWrite.nodeIdVector(b, log.updatedGroups());
    int[] chunkOffsets = new int[log.updatedChunks().size()];
    int i = 0;
    for (Map.Entry<NodeId, SortedSet<ChunkIndex>> e : log.updatedChunks().entrySet()) {
      int[] coords = new int[e.getValue().size()];
      int j = 0;
      for (ChunkIndex index : e.getValue()) {
        int vector = FbWrite.u32Vector(b, index.coords());
        b.startTable(1);
        b.addOffset(0, vector, 0);
        coords[j++] = b.endTable();
      }
      int coordVector = FbWrite.tableVector(b, coords);
      b.startTable(2);
      FbWrite.addIdStruct(b, 0, e.getKey().bytes());
      b.addOffset(1, coordVector, 0);
      chunkOffsets[i++] = b.endTable();
    }
    int updatedChunks = FbWrite.tableVector(b, chunkOffsets);
    int[] moveOffsets = new int[log.movedNodes().size()];
    for (int k = 0; k < moveOffsets.length; k++) {
      TransactionLog.Move m = log.movedNodes().get(k);
      int from = b.createString(m.from());
      int to = b.createString(m.to());
      b.startTable(4);
      b.addOffset(0, from, 0);
      b.addOffset(1, to, 0);
      FbWrite.addIdStruct(b, 2, m.nodeId().bytes());
      b.addByte(3, (byte) (m.nodeType() == NodeSnapshot.NodeType.GROUP ? 0 : 1), 0);
      moveOffsets[k] = b.endTable();
    }
    int moved = FbWrite.tableVector(b, moveOffsets);
    b.startTable(10);
    FbWrite.addIdStruct(b, ID, log.id().bytes());
    b.addOffset(NEW_GROUPS, newGroups, 0);
    b.addOffset(NEW_ARRAYS, newArrays, 0);
    b.addOffset(DELETED_GROUPS, deletedGroups, 0);
    b.addOffset(DELETED_ARRAYS, deletedArrays, 0);
    b.addOffset(UPDATED_ARRAYS, updatedArrays, 0);
    b.addOffset(UPDATED_GROUPS, updatedGroups, 0);
    b.addOffset(UPDATED_CHUNKS, updatedChunks, 0);
    b.addOffset(MOVED_NODES, moved, 0);
    return Envelope.seal(SpecVersion.V2, FileType.TRANSACTION_LOG, FbWrite.finish(b, b.endTable()));
  }
}
