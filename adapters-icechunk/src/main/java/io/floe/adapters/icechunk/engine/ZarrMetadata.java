package io.floe.adapters.icechunk.engine;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.json.JsonReadFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.floe.adapters.icechunk.format.DimensionShape;
import java.io.IOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The parts of a Zarr v3 {@code zarr.json} that Icechunk mirrors into the snapshot: node type,
 * shape with chunk counts (regular grid) and dimension names; plus attribute access.
 */
public final class ZarrMetadata {
  /**
   * Lenient about NaN and Infinity, which Python's json module writes and reads; Icechunk itself
   * refuses them in new documents, as {@link #checkWritable} does.
   */
  private static final ObjectMapper JSON = JsonMapper.builder()
      .enable(JsonReadFeature.ALLOW_NON_NUMERIC_NUMBERS)
      .build();

  private final ObjectNode root;

  private ZarrMetadata(ObjectNode root) {
    this.root = root;
  }

  public static ZarrMetadata parse(String where, byte[] zarrJson) {
    try {
      JsonNode node = JSON.readTree(zarrJson);
      if (!(node instanceof ObjectNode object)) {
        throw new IcechunkException(where + ": zarr.json is not a JSON object");
      }
      return new ZarrMetadata(object);
    } catch (IOException e) {
      throw new IcechunkException(where + ": zarr.json is not valid JSON: " + e.getMessage(), e);
    }
  }

  /** A minimal Zarr v3 group document with the given attributes. */
  public static byte[] group(Map<String, ?> attributes) {
    Map<String, Object> doc = new LinkedHashMap<>();
    doc.put("zarr_format", 3);
    doc.put("node_type", "group");
    doc.put("attributes", attributes == null ? Map.of() : checkWritable(attributes));
    return toBytes(doc);
  }

  static byte[] toBytes(Object value) {
    try {
      return JSON.writerWithDefaultPrettyPrinter().writeValueAsBytes(value);
    } catch (JsonProcessingException e) {
      throw new IllegalArgumentException("cannot serialize to JSON: " + e.getMessage(), e);
    }
  }

  public boolean isArray() {
    return "array".equals(root.path("node_type").asText());
  }

  public boolean isGroup() {
    return "group".equals(root.path("node_type").asText());
  }

  public List<Long> shape() {
    List<Long> out = new ArrayList<>();
    root.path("shape").forEach(n -> out.add(n.asLong()));
    return out;
  }

  /** The regular grid's chunk shape; for other grids one chunk spans each whole dimension. */
  public List<Long> chunkShape() {
    List<Long> out = new ArrayList<>();
    JsonNode grid = root.path("chunk_grid");
    if ("regular".equals(grid.path("name").asText())) {
      grid.path("configuration").path("chunk_shape").forEach(n -> out.add(n.asLong()));
      return out;
    }
    return shape();
  }

  public List<DimensionShape> dimensionShapes(String where) {
    List<Long> shape = shape();
    List<Long> chunks = chunkShape();
    if (shape.size() != chunks.size()) {
      throw new IcechunkException(where + ": zarr.json shape has " + shape.size()
          + " dimensions but the chunk shape has " + chunks.size());
    }
    List<DimensionShape> out = new ArrayList<>();
    for (int i = 0; i < shape.size(); i++) {
      long c = chunks.get(i);
      long n = c <= 0 ? 0 : (shape.get(i) + c - 1) / c;
      out.add(new DimensionShape(shape.get(i), n));
    }
    return out;
  }

  /** Null when zarr.json has no dimension names; unnamed dimensions are null entries. */
  public List<String> dimensionNames() {
    JsonNode names = root.get("dimension_names");
    if (names == null || !names.isArray()) {
      return null;
    }
    List<String> out = new ArrayList<>();
    names.forEach(n -> out.add(n.isNull() ? null : n.asText()));
    return out;
  }

  /**
   * The attributes as JSON-like values (integers as {@link Long} or {@link java.math.BigInteger},
   * other numbers as {@link Double}); empty when the document has none. {@code where} names the
   * node in errors.
   */
  public Map<String, Object> attributes(String where) {
    JsonNode attrs = root.get("attributes");
    if (attrs == null || attrs.isNull()) {
      return Map.of();
    }
    if (!attrs.isObject()) {
      throw new IcechunkException(where + ": zarr.json attributes are a JSON "
          + attrs.getNodeType().name().toLowerCase(java.util.Locale.ROOT) + ", not an object");
    }
    Map<String, Object> out = new LinkedHashMap<>();
    attrs.fields().forEachRemaining(e -> out.put(e.getKey(), JsonValues.toJava(e.getValue())));
    return out;
  }

  public byte[] withAttributes(Map<String, ?> attributes) {
    ObjectNode copy = root.deepCopy();
    copy.set("attributes", JSON.valueToTree(checkWritable(attributes)));
    return toBytes(copy);
  }

  /** Icechunk refuses a zarr.json holding NaN or an infinity (JSON has neither); so does Floe. */
  static <T> T checkWritable(T value) {
    if ((value instanceof Double || value instanceof Float)
        && !Double.isFinite(((Number) value).doubleValue())) {
      throw new IllegalArgumentException("attribute value " + value
          + " cannot be stored: JSON has no NaN or Infinity");
    }
    if (value instanceof Map<?, ?> map) {
      map.values().forEach(ZarrMetadata::checkWritable);
    } else if (value instanceof Iterable<?> list) {
      list.forEach(ZarrMetadata::checkWritable);
    } else if (value instanceof Object[] array) {
      java.util.Arrays.asList(array).forEach(ZarrMetadata::checkWritable);
    }
    return value;
  }

  public JsonNode json() {
    return root.deepCopy();
  }
}
