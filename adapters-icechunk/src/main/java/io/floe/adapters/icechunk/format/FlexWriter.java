package io.floe.adapters.icechunk.format;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Builds one FlexBuffer the way the format's reference builders do: values wait on a stack until
 * their vector or map ends, then are written at the smallest byte width that holds all of them and
 * every offset. Only the kinds JSON needs are written (null, bool, int, uint, float, string,
 * untyped vector, map with keys sorted by their UTF-8 bytes), all of which Icechunk's Rust reader
 * (serde into JSON values) accepts.
 *
 * <p>Not on flatbuffers-java's {@code FlexBuffersBuilder}: it cannot store an unsigned 64-bit
 * value under a map key, which JSON numbers up to 2^64-1 need.
 */
final class FlexWriter {
  /** A value on the stack: an inline scalar (its bits) or something already written (offset). */
  private record Pending(int type, long bits, int minWidthBits) {
    boolean inline() {
      return type == FlexReader.NULL || type == FlexReader.INT || type == FlexReader.UINT
          || type == FlexReader.FLOAT || type == FlexReader.BOOL;
    }
  }

  private byte[] buf = new byte[128];
  private int size;
  private final List<Pending> stack = new ArrayList<>();

  // ---------------------------------------------------------------- values

  void putNull() {
    stack.add(new Pending(FlexReader.NULL, 0, 0));
  }

  void putBool(boolean v) {
    stack.add(new Pending(FlexReader.BOOL, v ? 1 : 0, 0));
  }

  void putInt(long v) {
    stack.add(new Pending(FlexReader.INT, v, signedWidthBits(v)));
  }

  /** {@code v} is read as unsigned (all 64 bits). */
  void putUInt(long v) {
    stack.add(new Pending(FlexReader.UINT, v, unsignedWidthBits(v)));
  }

  /** Stored in 4 bytes when a float holds the value exactly, as the reference builders do. */
  void putFloat(double v) {
    int widthBits = (double) (float) v == v ? 2 : 3;
    stack.add(new Pending(FlexReader.FLOAT, Double.doubleToRawLongBits(v), widthBits));
  }

  void putString(String s) {
    byte[] utf8 = s.getBytes(StandardCharsets.UTF_8);
    int lengthBits = unsignedWidthBits(utf8.length);
    int byteWidth = align(lengthBits);
    writeUInt(utf8.length, byteWidth);
    int at = size;
    writeBytes(utf8);
    writeByte(0);
    stack.add(new Pending(FlexReader.STRING, at, lengthBits));
  }

  /** A map key: its bytes with a terminating zero (a key must not contain a zero byte). */
  void putKey(String key) {
    byte[] utf8 = key.getBytes(StandardCharsets.UTF_8);
    for (byte b : utf8) {
      if (b == 0) {
        throw new IllegalArgumentException("a metadata key cannot contain the NUL character");
      }
    }
    int at = size;
    writeBytes(utf8);
    writeByte(0);
    stack.add(new Pending(FlexReader.KEY, at, 0));
  }

  /** Where the next vector or map starts on the stack. */
  int start() {
    return stack.size();
  }

  void endVector(int start) {
    List<Pending> elements = new ArrayList<>(stack.subList(start, stack.size()));
    truncate(start);
    stack.add(writeVector(elements, null, FlexReader.VECTOR));
  }

  /** The stack from {@code start} holds key, value, key, value..., keys already sorted. */
  void endMap(int start) {
    List<Pending> keys = new ArrayList<>();
    List<Pending> values = new ArrayList<>();
    for (int i = start; i < stack.size(); i += 2) {
      keys.add(stack.get(i));
      values.add(stack.get(i + 1));
    }
    truncate(start);
    Pending keyVector = writeVector(keys, null, FlexReader.VECTOR_KEY);
    stack.add(writeVector(values, keyVector, FlexReader.MAP));
  }

  byte[] finish() {
    if (stack.size() != 1) {
      throw new IllegalStateException("a FlexBuffer has exactly one root value");
    }
    Pending root = stack.get(0);
    int widthBits = elementWidthBits(root, 0);
    int byteWidth = align(widthBits);
    writeValue(root, byteWidth);
    writeByte(storedPackedType(root, widthBits));
    writeByte(byteWidth);
    return Arrays.copyOf(buf, size);
  }

  // ---------------------------------------------------------------- layout

  /**
   * Writes a vector's length (for a map also its keys' offset and width first), its elements at
   * one width and, when untyped, one packed type byte per element.
   */
  private Pending writeVector(List<Pending> elements, Pending keys, int type) {
    int prefix = keys == null ? 1 : 3;
    int widthBits = unsignedWidthBits(elements.size());
    if (keys != null) {
      widthBits = Math.max(widthBits, elementWidthBits(keys, 0));
    }
    for (int i = 0; i < elements.size(); i++) {
      widthBits = Math.max(widthBits, elementWidthBits(elements.get(i), i + prefix));
    }
    int byteWidth = align(widthBits);
    if (keys != null) {
      writeOffset(keys.bits(), byteWidth);
      writeUInt(1L << keys.minWidthBits(), byteWidth);
    }
    writeUInt(elements.size(), byteWidth);
    int at = size;
    for (Pending e : elements) {
      writeValue(e, byteWidth);
    }
    if (type != FlexReader.VECTOR_KEY) {
      for (Pending e : elements) {
        writeByte(storedPackedType(e, widthBits));
      }
    }
    return new Pending(type, at, widthBits);
  }

  /**
   * The width an element needs at position {@code index} of a vector about to be written here:
   * a scalar its own, an offset one that reaches back to its target from where it will sit.
   */
  private int elementWidthBits(Pending p, int index) {
    if (p.inline()) {
      return p.minWidthBits();
    }
    for (int bits = 0; bits < 4; bits++) {
      int byteWidth = 1 << bits;
      long offsetAt = size + padding(size, byteWidth) + (long) index * byteWidth;
      long offset = offsetAt - p.bits();
      if (bits == 3 || (offset >>> (8 * byteWidth)) == 0) {
        return bits;
      }
    }
    throw new IllegalStateException("unreachable");
  }

  private static int storedPackedType(Pending p, int parentWidthBits) {
    int widthBits = p.inline() ? Math.max(p.minWidthBits(), parentWidthBits) : p.minWidthBits();
    return (p.type() << 2) | widthBits;
  }

  private void writeValue(Pending p, int byteWidth) {
    if (!p.inline()) {
      writeOffset(p.bits(), byteWidth);
    } else if (p.type() == FlexReader.FLOAT) {
      double v = Double.longBitsToDouble(p.bits());
      writeUInt(byteWidth == 4 ? Float.floatToRawIntBits((float) v) & 0xffffffffL
          : Double.doubleToRawLongBits(v), byteWidth);
    } else {
      writeUInt(p.bits(), byteWidth);
    }
  }

  private void writeOffset(long target, int byteWidth) {
    writeUInt(size - target, byteWidth);
  }

  private int align(int widthBits) {
    int byteWidth = 1 << widthBits;
    int pad = padding(size, byteWidth);
    for (int i = 0; i < pad; i++) {
      writeByte(0);
    }
    return byteWidth;
  }

  private static int padding(int at, int byteWidth) {
    return (-at) & (byteWidth - 1);
  }

  private void writeUInt(long v, int byteWidth) {
    for (int i = 0; i < byteWidth; i++) {
      writeByte((int) (v >>> (8 * i)));
    }
  }

  private void writeBytes(byte[] bytes) {
    ensure(bytes.length);
    System.arraycopy(bytes, 0, buf, size, bytes.length);
    size += bytes.length;
  }

  private void writeByte(int b) {
    ensure(1);
    buf[size++] = (byte) b;
  }

  private void ensure(int more) {
    if (size + more > buf.length) {
      buf = Arrays.copyOf(buf, Math.max(buf.length * 2, size + more));
    }
  }

  private void truncate(int start) {
    stack.subList(start, stack.size()).clear();
  }

  private static int unsignedWidthBits(long v) {
    if ((v >>> 8) == 0) {
      return 0;
    }
    if ((v >>> 16) == 0) {
      return 1;
    }
    return (v >>> 32) == 0 ? 2 : 3;
  }

  private static int signedWidthBits(long v) {
    if (v == (byte) v) {
      return 0;
    }
    if (v == (short) v) {
      return 1;
    }
    return v == (int) v ? 2 : 3;
  }
}
