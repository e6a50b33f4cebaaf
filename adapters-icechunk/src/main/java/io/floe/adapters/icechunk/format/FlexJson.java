package io.floe.adapters.icechunk.format;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * JSON-like values (the commit metadata and repo metadata of spec version 2) to and from
 * FlexBuffers. In Java a value is null, {@link Boolean}, {@link Long} (or {@link BigInteger}
 * past {@code Long.MAX_VALUE}), {@link Double}, {@link String}, {@code List<Object>} or
 * {@code Map<String, Object>}; maps come back in their stored order, sorted by the keys' UTF-8
 * bytes.
 *
 * <p>Writing follows what Python's Icechunk does with the same value, so both read it alike:
 * non-negative integers are unsigned, negative ones signed, integers past 2^64-1 become floats,
 * NaN and the infinities become null (JSON has neither), and bytes a list of their unsigned values.
 */
public final class FlexJson {
  private FlexJson() {}

  /** Decodes a value; a damaged one raises {@link IcechunkFormatException} naming {@code where}. */
  public static Object decode(String where, byte[] flexbuffer) {
    try {
      return FlexReader.read(flexbuffer);
    } catch (IcechunkFormatException e) {
      throw new IcechunkFormatException(where + ": " + e.getMessage(), e);
    }
  }

  public static Object decode(byte[] flexbuffer) {
    return FlexReader.read(flexbuffer);
  }

  public static byte[] encode(Object value) {
    FlexWriter w = new FlexWriter();
    put(w, value);
    return w.finish();
  }

  private static void put(FlexWriter w, Object value) {
    if (value == null) {
      w.putNull();
    } else if (value instanceof Boolean v) {
      w.putBool(v);
    } else if (value instanceof Byte || value instanceof Short || value instanceof Integer
        || value instanceof Long) {
      putInteger(w, ((Number) value).longValue());
    } else if (value instanceof BigInteger v) {
      if (v.bitLength() <= 63) {
        putInteger(w, v.longValue());
      } else if (v.signum() > 0 && v.bitLength() <= 64) {
        w.putUInt(v.longValue());
      } else {
        putDouble(w, v.doubleValue());
      }
    } else if (value instanceof Float || value instanceof Double || value instanceof BigDecimal) {
      putDouble(w, ((Number) value).doubleValue());
    } else if (value instanceof CharSequence || value instanceof Character) {
      w.putString(value.toString());
    } else if (value instanceof Map<?, ?> map) {
      int start = w.start();
      for (Map.Entry<String, Object> e : sortedEntries(map)) {
        w.putKey(e.getKey());
        put(w, e.getValue());
      }
      w.endMap(start);
    } else if (value instanceof byte[] bytes) {
      int start = w.start();
      for (byte b : bytes) {
        w.putUInt(Byte.toUnsignedLong(b));
      }
      w.endVector(start);
    } else if (value instanceof Object[] array) {
      put(w, Arrays.asList(array));
    } else if (value instanceof Iterable<?> list) {
      int start = w.start();
      for (Object element : list) {
        put(w, element);
      }
      w.endVector(start);
    } else {
      throw new IllegalArgumentException("not a JSON-like value: " + value.getClass().getName());
    }
  }

  private static void putInteger(FlexWriter w, long v) {
    if (v >= 0) {
      w.putUInt(v);
    } else {
      w.putInt(v);
    }
  }

  private static void putDouble(FlexWriter w, double v) {
    if (Double.isFinite(v)) {
      w.putFloat(v);
    } else {
      w.putNull();
    }
  }

  /** Entries sorted by the keys' UTF-8 bytes, as FlexBuffers maps and Icechunk's lists are. */
  static List<Map.Entry<String, Object>> sortedEntries(Map<?, ?> map) {
    TreeMap<String, Object> sorted = new TreeMap<>(FlexJson::compareUtf8);
    for (Map.Entry<?, ?> e : map.entrySet()) {
      if (!(e.getKey() instanceof String k)) {
        throw new IllegalArgumentException("metadata map keys must be strings, got " + e.getKey());
      }
      sorted.put(k, e.getValue());
    }
    return new ArrayList<>(sorted.entrySet());
  }

  /**
   * Byte order of the UTF-8 encodings, the order Icechunk sorts names and paths by, computed
   * without encoding: UTF-8 byte order is code point order, which differs from UTF-16 order only
   * where a surrogate (a code point past U+FFFF) meets a char from U+E000 to U+FFFF.
   */
  public static int compareUtf8(String a, String b) {
    int n = Math.min(a.length(), b.length());
    for (int i = 0; i < n; i++) {
      char x = a.charAt(i);
      char y = b.charAt(i);
      if (x != y) {
        return codePointRank(x) - codePointRank(y);
      }
    }
    return a.length() - b.length();
  }

  /** Moves surrogates above U+E000..U+FFFF, so chars order as the code points they start. */
  private static int codePointRank(char c) {
    if (c >= 0xD800 && c <= 0xDFFF) {
      return c + 0x2000;
    }
    return c >= 0xE000 ? c - 0x800 : c;
  }
}
