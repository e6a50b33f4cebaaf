package io.floe.adapters.icechunk.format;

import com.google.flatbuffers.ArrayReadWriteBuf;
import com.google.flatbuffers.FlexBuffers;
import com.google.flatbuffers.FlexBuffersBuilder;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * JSON-like values (the commit metadata and repo metadata of spec version 2) to and from
 * FlexBuffers. In Java a value is null, {@link Boolean}, {@link Long} (or {@link BigInteger}
 * past {@code Long.MAX_VALUE}), {@link Double}, {@link String}, {@code List<Object>} or
 * {@code Map<String, Object>}; maps come back sorted by key, which is also how FlexBuffers
 * stores them.
 */
public final class FlexJson {
  private FlexJson() {}

  public static Object decode(byte[] flexbuffer) {
    return toJava(FlexBuffers.getRoot(ByteBuffer.wrap(flexbuffer)));
  }

  private static Object toJava(FlexBuffers.Reference ref) {
    if (ref.isNull()) {
      return null;
    }
    if (ref.isBoolean()) {
      return ref.asBoolean();
    }
    if (ref.isUInt()) {
      long v = ref.asUInt();
      return v >= 0 ? (Object) v : new BigInteger(Long.toUnsignedString(v));
    }
    if (ref.isInt()) {
      return ref.asLong();
    }
    if (ref.isFloat()) {
      return ref.asFloat();
    }
    if (ref.isString() || ref.isKey()) {
      return ref.asString();
    }
    if (ref.isMap()) {
      FlexBuffers.Map map = ref.asMap();
      FlexBuffers.KeyVector keys = map.keys();
      FlexBuffers.Vector values = map.values();
      Map<String, Object> out = new TreeMap<>();
      for (int i = 0; i < map.size(); i++) {
        out.put(keys.get(i).toString(), toJava(values.get(i)));
      }
      return out;
    }
    if (ref.isVector() || ref.isTypedVector()) {
      FlexBuffers.Vector vector = ref.asVector();
      List<Object> out = new ArrayList<>(vector.size());
      for (int i = 0; i < vector.size(); i++) {
        out.add(toJava(vector.get(i)));
      }
      return out;
    }
    if (ref.isBlob()) {
      return ref.asBlob().getBytes();
    }
    throw new IcechunkFormatException("unsupported FlexBuffers value type " + ref.getType());
  }

  public static byte[] encode(Object value) {
    FlexBuffersBuilder builder = new FlexBuffersBuilder(new ArrayReadWriteBuf(256),
        FlexBuffersBuilder.BUILDER_FLAG_SHARE_KEYS);
    put(builder, null, value);
    ByteBuffer buffer = builder.finish();
    byte[] out = new byte[buffer.remaining()];
    buffer.get(out);
    return out;
  }

  private static void put(FlexBuffersBuilder b, String key, Object value) {
    if (value == null) {
      if (key == null) {
        b.putNull();
      } else {
        b.putNull(key);
      }
    } else if (value instanceof Boolean v) {
      if (key == null) {
        b.putBoolean(v);
      } else {
        b.putBoolean(key, v);
      }
    } else if (value instanceof Byte || value instanceof Short || value instanceof Integer
        || value instanceof Long) {
      long v = ((Number) value).longValue();
      // Non-negative integers go in as unsigned, as Icechunk's serde encoding does for JSON
      // numbers that fit u64; keyed puts only offer signed integers, which read back the same.
      if (key == null) {
        if (v >= 0) {
          b.putUInt(v);
        } else {
          b.putInt(v);
        }
      } else {
        b.putInt(key, v);
      }
    } else if (value instanceof BigInteger v) {
      if (v.bitLength() <= 63) {
        put(b, key, v.longValue());
      } else if (key == null && v.signum() > 0 && v.bitLength() <= 64) {
        b.putUInt64(v);
      } else {
        put(b, key, v.doubleValue());
      }
    } else if (value instanceof Float || value instanceof Double || value instanceof BigDecimal) {
      double v = ((Number) value).doubleValue();
      if (key == null) {
        b.putFloat(v);
      } else {
        b.putFloat(key, v);
      }
    } else if (value instanceof CharSequence v) {
      if (key == null) {
        b.putString(v.toString());
      } else {
        b.putString(key, v.toString());
      }
    } else if (value instanceof Map<?, ?> map) {
      int start = b.startMap();
      for (Map.Entry<String, Object> e : sortedEntries(map)) {
        put(b, e.getKey(), e.getValue());
      }
      b.endMap(key, start);
    } else if (value instanceof Iterable<?> list) {
      int start = b.startVector();
      for (Object element : list) {
        put(b, null, element);
      }
      b.endVector(key, start, false, false);
    } else if (value instanceof byte[] blob) {
      if (key == null) {
        b.putBlob(blob);
      } else {
        b.putBlob(key, blob);
      }
    } else {
      throw new IllegalArgumentException("not a JSON-like value: " + value.getClass().getName());
    }
  }

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

  /** Byte order of the UTF-8 encodings, the order Icechunk sorts names and paths by. */
  public static int compareUtf8(String a, String b) {
    return Arrays.compareUnsigned(a.getBytes(java.nio.charset.StandardCharsets.UTF_8),
        b.getBytes(java.nio.charset.StandardCharsets.UTF_8));
  }
}
