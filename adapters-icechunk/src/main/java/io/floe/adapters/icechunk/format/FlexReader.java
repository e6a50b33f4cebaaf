package io.floe.adapters.icechunk.format;

import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Decodes a whole FlexBuffer into JSON-like Java values, for every value type of the FlexBuffers
 * format: inline and indirect scalars of each width, strings, keys, blobs, untyped vectors, typed
 * vectors (int, uint, float, key, bool and the deprecated string kind), fixed typed vectors of 2, 3
 * and 4 elements, and maps.
 *
 * <p>Written against the format rather than on flatbuffers-java's {@code FlexBuffers}, whose
 * reader has no fixed typed vectors: Icechunk (through Rust's serde) stores a list of two to four
 * numbers that way, so {@code [1, 2]} in commit metadata is one. Every read is bounds-checked and
 * nesting is limited, so damaged bytes end in an {@link IcechunkFormatException}, never in another
 * exception, a huge allocation or a loop.
 */
final class FlexReader {
  static final int NULL = 0;
  static final int INT = 1;
  static final int UINT = 2;
  static final int FLOAT = 3;
  static final int KEY = 4;
  static final int STRING = 5;
  static final int INDIRECT_INT = 6;
  static final int INDIRECT_UINT = 7;
  static final int INDIRECT_FLOAT = 8;
  static final int MAP = 9;
  static final int VECTOR = 10;
  static final int VECTOR_INT = 11;
  static final int VECTOR_KEY = 14;
  static final int VECTOR_STRING_DEPRECATED = 15;
  static final int VECTOR_INT2 = 16;
  static final int VECTOR_FLOAT4 = 24;
  static final int BLOB = 25;
  static final int BOOL = 26;
  static final int VECTOR_BOOL = 36;
  /** Deeper nesting than any metadata needs; it also stops offset cycles. */
  static final int MAX_DEPTH = 256;

  private final byte[] buf;

  private FlexReader(byte[] buf) {
    this.buf = buf;
  }

  /** The root value; throws {@link IcechunkFormatException} (no object name) when damaged. */
  static Object read(byte[] flexbuffer) {
    FlexReader r = new FlexReader(flexbuffer);
    int n = flexbuffer.length;
    if (n < 3) {
      throw bad("a FlexBuffer needs at least 3 bytes, got " + n);
    }
    int rootWidth = Byte.toUnsignedInt(flexbuffer[n - 1]);
    if (rootWidth != 1 && rootWidth != 2 && rootWidth != 4 && rootWidth != 8) {
      throw bad("root byte width " + rootWidth + " is not 1, 2, 4 or 8");
    }
    int packed = Byte.toUnsignedInt(flexbuffer[n - 2]);
    int rootAt = n - 2 - rootWidth;
    if (rootAt < 0) {
      throw bad("root value of " + rootWidth + " bytes does not fit in " + n + " bytes");
    }
    return r.value(rootAt, rootWidth, packed, 0);
  }

  private Object value(int at, int parentWidth, int packed, int depth) {
    if (depth > MAX_DEPTH) {
      throw bad("values nested deeper than " + MAX_DEPTH + " levels");
    }
    int type = packed >>> 2;
    int width = 1 << (packed & 3);
    switch (type) {
      case NULL:
        return null;
      case INT:
        return readInt(at, parentWidth);
      case UINT:
        return unsigned(readUInt(at, parentWidth), parentWidth);
      case FLOAT:
        return readFloat(at, parentWidth);
      case BOOL:
        return readUInt(at, parentWidth) != 0;
      case KEY:
        return key(indirect(at, parentWidth));
      case STRING:
        return string(indirect(at, parentWidth), width);
      case INDIRECT_INT:
        return readInt(indirect(at, parentWidth), width);
      case INDIRECT_UINT:
        return unsigned(readUInt(indirect(at, parentWidth), width), width);
      case INDIRECT_FLOAT:
        return readFloat(indirect(at, parentWidth), width);
      case MAP:
        return map(indirect(at, parentWidth), width, depth + 1);
      case VECTOR:
        return vector(indirect(at, parentWidth), width, depth + 1);
      case BLOB:
        return blob(indirect(at, parentWidth), width);
      case VECTOR_BOOL:
        return typedVector(indirect(at, parentWidth), width, BOOL, -1, depth + 1);
      default:
        if (type >= VECTOR_INT && type <= VECTOR_STRING_DEPRECATED) {
          return typedVector(indirect(at, parentWidth), width, type - VECTOR_INT + INT, -1,
              depth + 1);
        }
        if (type >= VECTOR_INT2 && type <= VECTOR_FLOAT4) {
          int fixed = type - VECTOR_INT2;
          return typedVector(indirect(at, parentWidth), width, INT + fixed % 3, 2 + fixed / 3,
              depth + 1);
        }
        throw bad("unknown value type " + type);
    }
  }

  /** A typed vector; {@code fixedLength} is -1 when the length is stored before the elements. */
  private List<Object> typedVector(int at, int width, int elementType, int fixedLength,
      int depth) {
    int length = fixedLength >= 0 ? fixedLength : length(at, width);
    require(at, (long) length * width);
    List<Object> out = new ArrayList<>(length);
    for (int i = 0; i < length; i++) {
      // Elements of a typed vector carry no type bytes; strings of the deprecated kind are
      // read with 1-byte lengths, as the reference implementation does.
      out.add(value(at + i * width, width, elementType << 2, depth));
    }
    return out;
  }

  private List<Object> vector(int at, int width, int depth) {
    int length = length(at, width);
    require(at, (long) length * width + length);
    List<Object> out = new ArrayList<>(length);
    int types = at + length * width;
    for (int i = 0; i < length; i++) {
      out.add(value(at + i * width, width, Byte.toUnsignedInt(buf[types + i]), depth));
    }
    return out;
  }

  private Map<String, Object> map(int at, int width, int depth) {
    int length = length(at, width);
    require(at - 3 * width, 3L * width);
    int keysAt = indirect(at - 3 * width, width);
    long keysWidth = readUInt(at - 2 * width, width);
    if (keysWidth != 1 && keysWidth != 2 && keysWidth != 4 && keysWidth != 8) {
      throw bad("map key vector byte width " + keysWidth + " is not 1, 2, 4 or 8");
    }
    int keyCount = length(keysAt, (int) keysWidth);
    if (keyCount != length) {
      throw bad("map has " + length + " values but " + keyCount + " keys");
    }
    require(keysAt, (long) length * keysWidth);
    require(at, (long) length * width + length);
    Map<String, Object> out = new LinkedHashMap<>();
    int types = at + length * width;
    for (int i = 0; i < length; i++) {
      String name = key(indirect(keysAt + i * (int) keysWidth, (int) keysWidth));
      out.put(name, value(at + i * width, width, Byte.toUnsignedInt(buf[types + i]), depth));
    }
    return out;
  }

  /** Icechunk's metadata is JSON, which has no bytes: a blob reads as its unsigned byte values. */
  private List<Object> blob(int at, int width) {
    int length = length(at, width);
    require(at, length);
    List<Object> out = new ArrayList<>(length);
    for (int i = 0; i < length; i++) {
      out.add((long) Byte.toUnsignedInt(buf[at + i]));
    }
    return out;
  }

  private String string(int at, int width) {
    int length = length(at, width);
    require(at, length);
    return new String(buf, at, length, StandardCharsets.UTF_8);
  }

  private String key(int at) {
    require(at, 0);
    int end = at;
    while (end < buf.length && buf[end] != 0) {
      end++;
    }
    if (end == buf.length) {
      throw bad("key at byte " + at + " has no terminating zero");
    }
    return new String(buf, at, end - at, StandardCharsets.UTF_8);
  }

  /** The element count stored in the {@code width} bytes before a vector, string or blob. */
  private int length(int at, int width) {
    long length = readUInt(at - width, width);
    if (length < 0 || length > buf.length) {
      throw bad("length " + Long.toUnsignedString(length) + " at byte " + (at - width)
          + " exceeds the " + buf.length + "-byte buffer");
    }
    return (int) length;
  }

  /** Offsets point backwards: the target is {@code at} minus the stored unsigned offset. */
  private int indirect(int at, int width) {
    long offset = readUInt(at, width);
    if (offset < 0 || offset > at) {
      throw bad("offset " + Long.toUnsignedString(offset) + " at byte " + at
          + " points before the buffer");
    }
    return (int) (at - offset);
  }

  private long readInt(int at, int width) {
    require(at, width);
    return switch (width) {
      case 1 -> buf[at];
      case 2 -> (short) littleEndian(at, 2);
      case 4 -> (int) littleEndian(at, 4);
      case 8 -> littleEndian(at, 8);
      default -> throw bad("integer width " + width);
    };
  }

  private long readUInt(int at, int width) {
    require(at, width);
    if (width != 1 && width != 2 && width != 4 && width != 8) {
      throw bad("integer width " + width);
    }
    return littleEndian(at, width);
  }

  private double readFloat(int at, int width) {
    require(at, width);
    return switch (width) {
      case 4 -> Float.intBitsToFloat((int) littleEndian(at, 4));
      case 8 -> Double.longBitsToDouble(littleEndian(at, 8));
      default -> throw bad("a float of " + width + " bytes (only 4 and 8 exist)");
    };
  }

  private static Object unsigned(long value, int width) {
    return width == 8 && value < 0 ? new BigInteger(Long.toUnsignedString(value)) : (Object) value;
  }

  private long littleEndian(int at, int width) {
    long v = 0;
    for (int i = width - 1; i >= 0; i--) {
      v = (v << 8) | Byte.toUnsignedInt(buf[at + i]);
    }
    return v;
  }

  private void require(int at, long length) {
    if (at < 0 || length < 0 || at + length > buf.length) {
      throw bad("read of " + length + " bytes at byte " + at + " is outside the " + buf.length
          + "-byte buffer");
    }
  }

  private static IcechunkFormatException bad(String why) {
    return new IcechunkFormatException("corrupt FlexBuffers value: " + why);
  }
}
