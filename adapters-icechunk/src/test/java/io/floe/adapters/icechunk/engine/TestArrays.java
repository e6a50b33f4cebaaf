package io.floe.adapters.icechunk.engine;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;

/** Builds zarr.json documents and little-endian chunk bytes for tests. */
public final class TestArrays {
  private TestArrays() {}

  /** A Zarr v3 array with the bytes codec (and optionally zstd), regular grid. */
  public static byte[] arrayJson(String dtype, long[] shape, long[] chunks, Object fill, boolean zstd,
      String attributesJson, String dimensionNamesJson) {
    StringBuilder s = new StringBuilder();
    s.append("{\"zarr_format\":3,\"node_type\":\"array\",\"shape\":").append(json(shape))
        .append(",\"data_type\":\"").append(dtype).append("\"")
        .append(",\"chunk_grid\":{\"name\":\"regular\",\"configuration\":{\"chunk_shape\":")
        .append(json(chunks)).append("}}")
        .append(",\"chunk_key_encoding\":{\"name\":\"default\",\"configuration\":{\"separator\":\"/\"}}")
        .append(",\"fill_value\":").append(fill instanceof String str ? "\"" + str + "\"" : fill)
        .append(",\"codecs\":[{\"name\":\"bytes\",\"configuration\":{\"endian\":\"little\"}}");
    if (zstd) {
      s.append(",{\"name\":\"zstd\",\"configuration\":{\"level\":3,\"checksum\":false}}");
    }
    s.append("],\"attributes\":").append(attributesJson == null ? "{}" : attributesJson);
    if (dimensionNamesJson != null) {
      s.append(",\"dimension_names\":").append(dimensionNamesJson);
    }
    s.append("}");
    return s.toString().getBytes(StandardCharsets.UTF_8);
  }

  private static String json(long[] v) {
    StringBuilder s = new StringBuilder("[");
    for (int i = 0; i < v.length; i++) {
      s.append(i == 0 ? "" : ",").append(v[i]);
    }
    return s.append("]").toString();
  }

  public static byte[] int32s(int... values) {
    ByteBuffer b = ByteBuffer.allocate(values.length * 4).order(ByteOrder.LITTLE_ENDIAN);
    for (int v : values) {
      b.putInt(v);
    }
    return b.array();
  }

  public static byte[] float64s(double... values) {
    ByteBuffer b = ByteBuffer.allocate(values.length * 8).order(ByteOrder.LITTLE_ENDIAN);
    for (double v : values) {
      b.putDouble(v);
    }
    return b.array();
  }

  public static byte[] int16s(short... values) {
    ByteBuffer b = ByteBuffer.allocate(values.length * 2).order(ByteOrder.LITTLE_ENDIAN);
    for (short v : values) {
      b.putShort(v);
    }
    return b.array();
  }
}
