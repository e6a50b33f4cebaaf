package io.floe.adapters.icechunk.format;

import java.math.BigInteger;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/** Decodes the MessagePack values spec version 1 stores as commit metadata. Read-only. */
public final class MsgPack {
  private static final int MAX_DEPTH = 256;

  private final ByteBuffer in;
  private int depth;

  private MsgPack(byte[] data) {
    this.in = ByteBuffer.wrap(data);
  }

  /** Decodes a value; a damaged one raises {@link IcechunkFormatException} naming {@code where}. */
  public static Object decode(String where, byte[] data) {
    try {
      return new MsgPack(data).value();
    } catch (RuntimeException e) {
      throw new IcechunkFormatException(where + ": corrupt MessagePack value (" + e + ")", e);
    }
  }

  private Object value() {
    if (++depth > MAX_DEPTH) {
      throw new IllegalStateException("values nested deeper than " + MAX_DEPTH + " levels");
    }
    try {
      return item();
    } finally {
      depth--;
    }
  }

  private Object item() {
    int t = Byte.toUnsignedInt(in.get());
    if (t <= 0x7f) {
      return (long) t;
    }
    if (t >= 0xe0) {
      return (long) (byte) t;
    }
    if ((t & 0xf0) == 0x80) {
      return map(t & 0x0f);
    }
    if ((t & 0xf0) == 0x90) {
      return array(t & 0x0f);
    }
    if ((t & 0xe0) == 0xa0) {
      return string(t & 0x1f);
    }
    return switch (t) {
      case 0xc0 -> null;
      case 0xc2 -> false;
      case 0xc3 -> true;
      case 0xc4 -> bytes(Byte.toUnsignedInt(in.get()));
      case 0xc5 -> bytes(Short.toUnsignedInt(in.getShort()));
      case 0xc6 -> bytes(in.getInt());
      case 0xca -> (double) in.getFloat();
      case 0xcb -> in.getDouble();
      case 0xcc -> (long) Byte.toUnsignedInt(in.get());
      case 0xcd -> (long) Short.toUnsignedInt(in.getShort());
      case 0xce -> Integer.toUnsignedLong(in.getInt());
      case 0xcf -> {
        long v = in.getLong();
        yield v >= 0 ? (Object) v : new BigInteger(Long.toUnsignedString(v));
      }
      case 0xd0 -> (long) in.get();
      case 0xd1 -> (long) in.getShort();
      case 0xd2 -> (long) in.getInt();
      case 0xd3 -> in.getLong();
      case 0xd9 -> string(Byte.toUnsignedInt(in.get()));
      case 0xda -> string(Short.toUnsignedInt(in.getShort()));
      case 0xdb -> string(in.getInt());
      case 0xdc -> array(Short.toUnsignedInt(in.getShort()));
      case 0xdd -> array(in.getInt());
      case 0xde -> map(Short.toUnsignedInt(in.getShort()));
      case 0xdf -> map(in.getInt());
      default -> throw new IllegalStateException("unsupported MessagePack type 0x"
          + Integer.toHexString(t));
    };
  }

  /** JSON has no bytes: binary reads as its unsigned byte values, as FlexBuffers blobs do. */
  private List<Object> bytes(int n) {
    List<Object> out = new ArrayList<>();
    for (byte b : raw(n)) {
      out.add((long) Byte.toUnsignedInt(b));
    }
    return out;
  }

  private byte[] raw(int n) {
    requireRemaining(n);
    byte[] b = new byte[n];
    in.get(b);
    return b;
  }

  /** Every element takes at least one byte, so a count beyond the rest of the input is damage. */
  private void requireRemaining(long n) {
    if (n < 0 || n > in.remaining()) {
      throw new IllegalStateException("length " + n + " exceeds the " + in.remaining()
          + " bytes left");
    }
  }

  private String string(int n) {
    return new String(raw(n), StandardCharsets.UTF_8);
  }

  private List<Object> array(int n) {
    requireRemaining(n);
    List<Object> out = new ArrayList<>(n);
    for (int i = 0; i < n; i++) {
      out.add(value());
    }
    return out;
  }

  private Map<String, Object> map(int n) {
    requireRemaining(n);
    Map<String, Object> out = new TreeMap<>();
    for (int i = 0; i < n; i++) {
      out.put(String.valueOf(value()), value());
    }
    return out;
  }
}
