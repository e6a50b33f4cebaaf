package io.floe.adapters.rest.management;

import com.fasterxml.jackson.databind.JsonNode;
import io.floe.application.model.Invalid;
import io.floe.domain.MetadataValue;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** Typed metadata between JSON and the domain: scalars and flat lists of scalars, nothing else. */
public final class MetadataValues {
  private MetadataValues() {}

  /** A JSON object of metadata; absent or null means none. */
  public static Map<String, MetadataValue> fromJson(JsonNode object, String field) {
    if (object == null || object.isNull()) {
      return Map.of();
    }
    if (!object.isObject()) {
      throw Invalid.because(field + " must be a JSON object");
    }
    Map<String, MetadataValue> out = new LinkedHashMap<>();
    object.fields().forEachRemaining(entry ->
        out.put(entry.getKey(), value(entry.getValue(), field + "." + entry.getKey(), true)));
    return out;
  }

  private static MetadataValue value(JsonNode node, String path, boolean listAllowed) {
    if (node.isTextual()) {
      return new MetadataValue.Text(node.asText());
    } else if (node.isNumber()) {
      return new MetadataValue.Number(node.decimalValue());
    } else if (node.isBoolean()) {
      return new MetadataValue.Bool(node.booleanValue());
    } else if (node.isNull()) {
      return new MetadataValue.Null();
    } else if (node.isArray() && listAllowed) {
      List<MetadataValue> items = new ArrayList<>();
      node.forEach(item -> items.add(value(item, path + "[]", false)));
      return new MetadataValue.ListOf(items);
    }
    throw Invalid.because(path + ": metadata values are strings, numbers, booleans, null, "
        + "or lists of those");
  }

  /** The JSON form: a map whose values Jackson writes as they came in. */
  public static Map<String, Object> toJson(Map<String, MetadataValue> metadata) {
    Map<String, Object> out = new LinkedHashMap<>();
    metadata.entrySet().stream().sorted(Map.Entry.comparingByKey())
        .forEach(entry -> out.put(entry.getKey(), plain(entry.getValue())));
    return out;
  }

  private static Object plain(MetadataValue value) {
    if (value instanceof MetadataValue.Text text) {
      return text.value();
    } else if (value instanceof MetadataValue.Number number) {
      return number.value();
    } else if (value instanceof MetadataValue.Bool bool) {
      return bool.value();
    } else if (value instanceof MetadataValue.ListOf list) {
      List<Object> items = new ArrayList<>();
      list.values().forEach(item -> items.add(plain(item)));
      return items;
    }
    return null;
  }
}
