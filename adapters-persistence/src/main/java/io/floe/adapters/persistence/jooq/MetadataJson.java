package io.floe.adapters.persistence.jooq;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.floe.domain.MetadataValue;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.jooq.JSONB;

/** Typed descriptive metadata stored as a JSONB object. */
final class MetadataJson {
  private MetadataJson() {}

  static JSONB of(Map<String, MetadataValue> metadata) {
    ObjectNode object = JsonNodeFactory.instance.objectNode();
    metadata.forEach((key, value) -> object.set(key, node(value)));
    return JSONB.valueOf(object.toString());
  }

  static Map<String, MetadataValue> parse(JSONB json) {
    if (json == null) {
      return Map.of();
    }
    try {
      JsonNode tree = Json.mapper().readTree(json.data());
      Map<String, MetadataValue> out = new LinkedHashMap<>();
      tree.fields().forEachRemaining(entry -> out.put(entry.getKey(), value(entry.getValue())));
      return out;
    } catch (JsonProcessingException e) {
      throw new IllegalStateException("corrupt metadata JSON in the catalog", e);
    }
  }

  private static JsonNode node(MetadataValue value) {
    JsonNodeFactory nodes = JsonNodeFactory.instance;
    if (value instanceof MetadataValue.Text text) {
      return nodes.textNode(text.value());
    } else if (value instanceof MetadataValue.Number number) {
      return nodes.numberNode(number.value());
    } else if (value instanceof MetadataValue.Bool bool) {
      return nodes.booleanNode(bool.value());
    } else if (value instanceof MetadataValue.ListOf list) {
      ArrayNode array = nodes.arrayNode();
      list.values().forEach(item -> array.add(node(item)));
      return array;
    }
    return nodes.nullNode();
  }

  private static MetadataValue value(JsonNode node) {
    if (node.isTextual()) {
      return new MetadataValue.Text(node.asText());
    } else if (node.isNumber()) {
      return new MetadataValue.Number(node.decimalValue());
    } else if (node.isBoolean()) {
      return new MetadataValue.Bool(node.booleanValue());
    } else if (node.isArray()) {
      List<MetadataValue> items = new ArrayList<>();
      node.forEach(item -> items.add(value(item)));
      return new MetadataValue.ListOf(items);
    }
    return new MetadataValue.Null();
  }
}
