package io.floe.adapters.icechunk;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
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
  private static final ObjectMapper JSON = new ObjectMapper();

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
    doc.put("attributes", attributes == null ? Map.of() : attributes);
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

  @SuppressWarnings("unchecked")
  public Map<String, Object> attributes() {
    JsonNode attrs = root.get("attributes");
    if (attrs == null || attrs.isNull()) {
      return Map.of();
    }
    return JSON.convertValue(attrs, LinkedHashMap.class);
  }

  public byte[] withAttributes(Map<String, ?> attributes) {
    ObjectNode copy = root.deepCopy();
    copy.set("attributes", JSON.valueToTree(attributes));
    return toBytes(copy);
  }

  public JsonNode json() {
    return root.deepCopy();
  }
}
