package io.floe.adapters.icechunk.format;

import com.google.flatbuffers.FlatBufferBuilder;
import java.util.Collection;
import java.util.List;

/** Small helpers over {@link FlatBufferBuilder} for the struct and vector shapes Icechunk uses. */
final class FbWrite {
  private FbWrite() {}

  /** Adds an inline fixed-size byte-array struct (ObjectId12 / ObjectId8) to the open table. */
  static void addIdStruct(FlatBufferBuilder b, int slot, byte[] id) {
    b.prep(1, id.length);
    for (int i = id.length - 1; i >= 0; i--) {
      b.putByte(id[i]);
    }
    b.addStruct(slot, b.offset(), 0);
  }

  static int idVector(FlatBufferBuilder b, List<byte[]> ids, int size) {
    b.startVector(size, ids.size(), 1);
    for (int i = ids.size() - 1; i >= 0; i--) {
      byte[] id = ids.get(i);
      for (int j = size - 1; j >= 0; j--) {
        b.putByte(id[j]);
      }
    }
    return b.endVector();
  }

  static int nodeIdVector(FlatBufferBuilder b, Collection<NodeId> ids) {
    return idVector(b, ids.stream().map(NodeId::bytes).toList(), NodeId.LENGTH);
  }

  static int u32Vector(FlatBufferBuilder b, long[] values) {
    b.startVector(4, values.length, 4);
    for (int i = values.length - 1; i >= 0; i--) {
      b.putInt((int) values[i]);
    }
    return b.endVector();
  }

  static int u16Vector(FlatBufferBuilder b, int[] values) {
    b.startVector(2, values.length, 2);
    for (int i = values.length - 1; i >= 0; i--) {
      b.putShort((short) values[i]);
    }
    return b.endVector();
  }

  static int tableVector(FlatBufferBuilder b, int[] offsets) {
    return b.createVectorOfTables(offsets);
  }

  static int metadataVector(FlatBufferBuilder b, List<MetadataItem> items) {
    int[] offsets = new int[items.size()];
    for (int i = 0; i < items.size(); i++) {
      int name = b.createString(items.get(i).name());
      int value = b.createByteVector(items.get(i).value());
      b.startTable(2);
      b.addOffset(0, name, 0);
      b.addOffset(1, value, 0);
      offsets[i] = b.endTable();
    }
    return tableVector(b, offsets);
  }

  static List<MetadataItem> readMetadata(FbTable t, int slot) {
    return t.tables(slot).stream().map(m -> {
      String name = m.string(0);
      byte[] value = m.bytes(1);
      if (name == null || value == null) {
        // Codecs turn this into a format error naming the file.
        throw new IllegalArgumentException("a metadata item lacks its "
            + (name == null ? "name" : "value '" + name + "'"));
      }
      return new MetadataItem(name, value);
    }).toList();
  }

  static byte[] finish(FlatBufferBuilder b, int root) {
    b.finish(root);
    return b.sizedByteArray();
  }

  /** Turns low-level decoding failures of a damaged flatbuffer into a message naming the object. */
  static IcechunkFormatException corrupt(String objectName, String what, RuntimeException e) {
    return new IcechunkFormatException(objectName + ": corrupt " + what + " flatbuffer ("
        + e.getClass().getSimpleName() + (e.getMessage() == null ? "" : ": " + e.getMessage())
        + ")", e);
  }
}
