package io.floe.adapters.icechunk.format;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * A minimal reader for one FlatBuffers table, addressed by field slot (the field's position in
 * the schema; a union takes two slots, its type byte then its value). Reading through slots
 * keeps the code independent of generated classes and of the flatc version.
 *
 * <p>Every offset is bounds-checked by {@link ByteBuffer}; an out-of-range offset surfaces as an
 * {@link IndexOutOfBoundsException} which callers turn into an {@link IcechunkFormatException}.
 */
public final class FbTable {
  private final ByteBuffer bb;
  private final int pos;

  private FbTable(ByteBuffer bb, int pos) {
    this.bb = bb;
    this.pos = pos;
  }

  public static FbTable root(byte[] flatbuffer) {
    ByteBuffer bb = ByteBuffer.wrap(flatbuffer).order(ByteOrder.LITTLE_ENDIAN);
    return new FbTable(bb, bb.getInt(0));
  }

  /** The table at {@code index} of a vector-of-tables field, without reading the others. */
  public FbTable element(int slot, int index) {
    int o = fieldOffset(slot);
    if (o == 0) {
      throw new IndexOutOfBoundsException("vector field " + slot + " is absent");
    }
    int vec = indirect(pos + o);
    int len = length(vec, 4);
    if (index < 0 || index >= len) {
      throw new IndexOutOfBoundsException("element " + index + " of a " + len + "-element vector");
    }
    return new FbTable(bb, indirect(vec + 4 + 4 * index));
  }

  /**
   * Compares a string field's UTF-8 bytes with {@code key}, unsigned and byte by byte, without
   * decoding it: how sorted vectors are searched. An absent field sorts first.
   */
  public int compareString(int slot, byte[] key) {
    int o = fieldOffset(slot);
    if (o == 0) {
      return -1;
    }
    int s = indirect(pos + o);
    int len = length(s, 1);
    int n = Math.min(len, key.length);
    for (int i = 0; i < n; i++) {
      int c = Byte.toUnsignedInt(bb.get(s + 4 + i)) - Byte.toUnsignedInt(key[i]);
      if (c != 0) {
        return c;
      }
    }
    return Integer.compare(len, key.length);
  }

  /** Whether a string field starts with the UTF-8 bytes {@code prefix}. */
  public boolean stringStartsWith(int slot, byte[] prefix) {
    int o = fieldOffset(slot);
    if (o == 0) {
      return false;
    }
    int s = indirect(pos + o);
    int len = length(s, 1);
    if (len < prefix.length) {
      return false;
    }
    for (int i = 0; i < prefix.length; i++) {
      if (bb.get(s + 4 + i) != prefix[i]) {
        return false;
      }
    }
    return true;
  }

  /** The table's byte offset of the field, or 0 when the field is absent. */
  private int fieldOffset(int slot) {
    int vtable = pos - bb.getInt(pos);
    int vtableSize = Short.toUnsignedInt(bb.getShort(vtable));
    int entry = 4 + 2 * slot;
    return entry < vtableSize ? Short.toUnsignedInt(bb.getShort(vtable + entry)) : 0;
  }

  public boolean has(int slot) {
    return fieldOffset(slot) != 0;
  }

  public int u8(int slot, int dflt) {
    int o = fieldOffset(slot);
    return o == 0 ? dflt : Byte.toUnsignedInt(bb.get(pos + o));
  }

  public boolean bool(int slot, boolean dflt) {
    int o = fieldOffset(slot);
    return o == 0 ? dflt : bb.get(pos + o) != 0;
  }

  public int u16(int slot, int dflt) {
    int o = fieldOffset(slot);
    return o == 0 ? dflt : Short.toUnsignedInt(bb.getShort(pos + o));
  }

  public int i32(int slot, int dflt) {
    int o = fieldOffset(slot);
    return o == 0 ? dflt : bb.getInt(pos + o);
  }

  public long u32(int slot, long dflt) {
    int o = fieldOffset(slot);
    return o == 0 ? dflt : Integer.toUnsignedLong(bb.getInt(pos + o));
  }

  public long u64(int slot, long dflt) {
    int o = fieldOffset(slot);
    return o == 0 ? dflt : bb.getLong(pos + o);
  }

  /** An inline struct's raw bytes, or null when absent. */
  public byte[] struct(int slot, int size) {
    int o = fieldOffset(slot);
    if (o == 0) {
      return null;
    }
    byte[] out = new byte[size];
    bb.get(pos + o, out);
    return out;
  }

  /**
   * A vector's element count, checked against the buffer so damaged bytes cannot ask for a
   * negative or huge allocation.
   */
  private int length(int vec, int elementSize) {
    int len = bb.getInt(vec);
    if (len < 0 || (long) len * elementSize > bb.limit() - vec - 4L) {
      throw new IndexOutOfBoundsException("vector of " + Integer.toUnsignedString(len)
          + " elements at byte " + vec + " does not fit in the " + bb.limit() + "-byte buffer");
    }
    return len;
  }

  private int indirect(int at) {
    return at + bb.getInt(at);
  }

  public String string(int slot) {
    byte[] b = bytes(slot);
    return b == null ? null : new String(b, StandardCharsets.UTF_8);
  }

  /** A vector of bytes (also how a string is stored), or null when absent. */
  public byte[] bytes(int slot) {
    int o = fieldOffset(slot);
    if (o == 0) {
      return null;
    }
    int vec = indirect(pos + o);
    int len = length(vec, 1);
    byte[] out = new byte[len];
    bb.get(vec + 4, out);
    return out;
  }

  public FbTable table(int slot) {
    int o = fieldOffset(slot);
    return o == 0 ? null : new FbTable(bb, indirect(pos + o));
  }

  /** Number of elements of a vector field; 0 when absent. */
  public int vectorLength(int slot) {
    int o = fieldOffset(slot);
    return o == 0 ? 0 : length(indirect(pos + o), 1);
  }

  public List<FbTable> tables(int slot) {
    int o = fieldOffset(slot);
    if (o == 0) {
      return List.of();
    }
    int vec = indirect(pos + o);
    int len = length(vec, 4);
    List<FbTable> out = new ArrayList<>(len);
    for (int i = 0; i < len; i++) {
      out.add(new FbTable(bb, indirect(vec + 4 + 4 * i)));
    }
    return out;
  }

  public List<String> strings(int slot) {
    int o = fieldOffset(slot);
    if (o == 0) {
      return List.of();
    }
    int vec = indirect(pos + o);
    int len = length(vec, 4);
    List<String> out = new ArrayList<>(len);
    for (int i = 0; i < len; i++) {
      int s = indirect(vec + 4 + 4 * i);
      byte[] b = new byte[length(s, 1)];
      bb.get(s + 4, b);
      out.add(new String(b, StandardCharsets.UTF_8));
    }
    return out;
  }

  /** A vector of fixed-size structs, each returned as its raw bytes. */
  public List<byte[]> structs(int slot, int size) {
    int o = fieldOffset(slot);
    if (o == 0) {
      return List.of();
    }
    int vec = indirect(pos + o);
    int len = length(vec, size);
    List<byte[]> out = new ArrayList<>(len);
    for (int i = 0; i < len; i++) {
      byte[] e = new byte[size];
      bb.get(vec + 4 + size * i, e);
      out.add(e);
    }
    return out;
  }

  public long[] u32s(int slot) {
    int o = fieldOffset(slot);
    if (o == 0) {
      return new long[0];
    }
    int vec = indirect(pos + o);
    int len = length(vec, 4);
    long[] out = new long[len];
    for (int i = 0; i < len; i++) {
      out[i] = Integer.toUnsignedLong(bb.getInt(vec + 4 + 4 * i));
    }
    return out;
  }

  public int[] u16s(int slot) {
    int o = fieldOffset(slot);
    if (o == 0) {
      return new int[0];
    }
    int vec = indirect(pos + o);
    int len = length(vec, 2);
    int[] out = new int[len];
    for (int i = 0; i < len; i++) {
      out[i] = Short.toUnsignedInt(bb.getShort(vec + 4 + 2 * i));
    }
    return out;
  }

  /** Reads a little-endian unsigned 64-bit value from struct bytes. */
  public static long leLong(byte[] struct, int offset) {
    return ByteBuffer.wrap(struct).order(ByteOrder.LITTLE_ENDIAN).getLong(offset);
  }

  public static long leUInt(byte[] struct, int offset) {
    return Integer.toUnsignedLong(ByteBuffer.wrap(struct).order(ByteOrder.LITTLE_ENDIAN)
        .getInt(offset));
  }
}
